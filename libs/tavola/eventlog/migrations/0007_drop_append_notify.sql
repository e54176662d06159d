-- Nothing listens for appends any more (readers are woken by the writer in process and by
-- the bus; tailing readers poll): the NOTIFY fired by every insert only cost time.
DROP TRIGGER IF EXISTS events_notify ON events;
DROP FUNCTION IF EXISTS events_notify_append();
