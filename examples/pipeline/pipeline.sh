#!/usr/bin/env bash
# The config repository's pipeline, one stage per call: `roce-cfg pipeline` (roce_cfg/pipeline.py,
# shipped in the wheel) does the work; this wrapper keeps the older call working:
#
#   pipeline.sh generate|lint|deadlock|plan|apply|all INTENT INVENTORY [WORKDIR]
#
# generate -> lint (SARIF for code scanning) -> deadlock what-ifs (JUnit) -> push dry run (the
# merge request's artifact) -> [manual approval in CI] -> push --apply in canary batches
# (ROCE_CFG_BATCH, default 1,10%,100%). `all` runs every stage but apply.
set -euo pipefail
exec roce-cfg pipeline "$@"
