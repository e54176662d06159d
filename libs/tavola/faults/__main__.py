"""``python -m tavola.faults``: the fault suite (``make faults``: the long form).

Exit status 0 when every check passed, 1 on any violation, 2 when the suite itself could
not run. The seed is printed first; ``--seed`` repeats a run's plan.
"""

from __future__ import annotations

import os

# before gRPC loads: its C core would log every fork (the services, the servers) as INFO
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")

import argparse
import logging
import secrets
import shutil
import sys
import traceback
from pathlib import Path

from tavola.faults.profile import PROFILES
from tavola.faults.suite import run
from tavola.infra.folder import lease_folder

DEFAULT_FOLDER = Path(".tavola") / "faults"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tavola.faults", description=__doc__)
    parser.add_argument("--form", choices=sorted(PROFILES), default="long")
    parser.add_argument("--seed", type=int, default=None, help="repeat a run's plan")
    parser.add_argument("--minutes", type=float, default=None, help="minutes of faults")
    parser.add_argument("--folder", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--keep", action="store_true", help="keep the data and logs")
    parser.add_argument("--strict", action="store_true", help="known issues fail the run")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    profile = PROFILES[args.form]
    if args.minutes is not None:
        profile = profile.scaled(args.minutes)
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    lease = lease_folder(args.folder.resolve())  # the servers run in folders of their own
    folder = lease.path / f"run-{seed}"
    shutil.rmtree(folder, ignore_errors=True)
    try:
        report = run(
            profile, seed, folder, say=lambda line: print(line, flush=True), strict=args.strict
        )
    except Exception as error:
        traceback.print_exc()
        print(f"the fault suite could not run (seed {seed}): {error!r}", flush=True)
        print(f"data and logs kept in {folder}", flush=True)
        return 2
    finally:
        lease.release()
    if report.ok and not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    else:
        print(f"data and logs kept in {folder}", flush=True)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
