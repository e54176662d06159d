"""The fault suite (`make faults`)."""
