"""CPU time of a process group, for the benchmarks that start servers (Linux /proc)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def cpu_seconds(process: subprocess.Popen) -> float:
    """CPU time (user + system) of every live process in `process`'s group."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == process.pid:  # fields[2]: the process group
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")
