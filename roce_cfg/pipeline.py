"""A config repository's pipeline, one stage per call (``roce-cfg pipeline STAGE ...``), as
docs/pipeline.md's GitHub Actions and GitLab CI jobs run it. It ships in the wheel, so a config
repository that holds only intents, configs and an inventory copies the CI file and nothing else.

generate -> lint (SARIF for code scanning) -> deadlock what-ifs (JUnit) -> push dry run (the
merge request's artifact) -> [manual approval in CI] -> push --apply in canary batches. A stage
that finds a problem exits non-zero and stops the pipeline; ``all`` runs every stage but apply:
applying is always its own, approved call. Each stage runs roce-cfg in a process of its own, as a
shell script would, so its exit code and outputs are exactly the command's.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from roce_cfg.output import write_file

STAGES = ("generate", "lint", "deadlock", "plan", "apply")
ALL = ("generate", "lint", "deadlock", "plan")  # 'all': every stage but the approved apply
DEFAULT_BATCH = "1,10%,100%"


@dataclass(frozen=True)
class Job:
    intent: Path
    inventory: Path
    work: Path
    batch: str = DEFAULT_BATCH
    say: Callable[[str], None] = print
    echo: bool = True  # apply's push output also on stdout (else on stderr: stdout is JSON)

    @property
    def configs(self) -> Path:
        return self.work / "configs"

    def roce_cfg(self, *args: str | Path, out: Path | None = None, echo: bool = False) -> int:
        """roce-cfg ``args`` in its own process; stdout into ``out`` (and echoed with ``echo``)."""
        cmd = [sys.executable, "-m", "roce_cfg", *(str(a) for a in args)]
        if out is None:
            return subprocess.run(cmd, check=False).returncode
        done = subprocess.run(cmd, check=False, stdout=subprocess.PIPE)
        # through the writer every output takes: atomic, never through a link in the folder
        write_file(out, done.stdout.decode("utf-8", "replace"))
        if echo:
            stream = sys.stdout if self.echo else sys.stderr
            stream.buffer.write(done.stdout)
            stream.flush()
        return done.returncode


def generate(job: Job) -> int:
    return job.roce_cfg(
        "generate", job.intent, "-o", job.configs, "--force", out=job.work / "generate.txt"
    )


def lint(job: Job) -> int:
    # SARIF is written whatever the result; on a finding the text goes to stderr for the log.
    rc = job.roce_cfg("lint", job.configs, "--format", "sarif", out=job.work / "lint.sarif")
    if rc:
        subprocess.run(
            [sys.executable, "-m", "roce_cfg", "lint", str(job.configs)],
            check=False,
            stdout=sys.stderr,
        )
    return rc


def deadlock(job: Job) -> int:
    args = ("deadlock", job.configs, "--fail-links", "all-single", "--format", "junit")
    return job.roce_cfg(*args, out=job.work / "deadlock.xml")


def dry_run(job: Job) -> int:
    # the artifact a reviewer approves: the whole diff, not the per-section summary
    args = ("push", job.configs, "-i", job.inventory, "--diff", "full")
    return job.roce_cfg(*args, out=job.work / "push-plan.txt")


def apply(job: Job) -> int:
    args = ("push", job.configs, "-i", job.inventory, "--apply", "--batch", job.batch)
    return job.roce_cfg(*args, out=job.work / "push-apply.txt", echo=True)


RUNNERS: dict[str, Callable[[Job], int]] = {
    "generate": generate,
    "lint": lint,
    "deadlock": deadlock,
    "plan": dry_run,
    "apply": apply,
}


def _check(job: Job, stage: str) -> None:
    """The job's inputs read and its work folder made before any stage runs: a bad intent or
    inventory (a FIFO, a device, a folder, broken YAML in their place) is one line now, not a
    stage failing in a child process; the work folder is never made through a link or over
    a file."""
    from roce_cfg.deploy.inventory import load, readable
    from roce_cfg.intent.loader import load_intent
    from roce_cfg.output import made_folder

    load_intent(job.intent)  # every stage starts from it: a bad one is one line here
    if stage in ("plan", "apply", "all"):
        load(job.inventory)  # they push to its hosts: checked before any stage runs
    else:
        readable(job.inventory)
    made_folder(job.work)


def run(stage: str, job: Job, ran: list[tuple[str, int]] | None = None) -> int:
    """Run ``stage`` (or ``all``); the first non-zero exit code stops it and is returned.
    Each stage run and its exit code is appended to ``ran``."""
    _check(job, stage)
    for name in ALL if stage == "all" else (stage,):
        rc = RUNNERS[name](job)
        if ran is not None:
            ran.append((name, rc))
        if rc:
            job.say(f"pipeline: {name} failed (exit {rc}; outputs in {job.work})")
            return rc
    job.say(f"pipeline: {stage} passed ({job.work})")
    return 0
