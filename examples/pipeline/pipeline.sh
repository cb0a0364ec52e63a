#!/usr/bin/env bash
# The config repository's pipeline, one stage per call, as docs/pipeline.md's GitHub Actions and
# GitLab CI jobs run it (and as tests/test_pipeline.py runs it against `roce-cfg lab`):
#
#   pipeline.sh generate|lint|deadlock|plan|apply|all INTENT INVENTORY [WORKDIR]
#
# generate -> lint (SARIF for code scanning) -> deadlock what-ifs (JUnit) -> push dry run (the
# merge request's artifact) -> [manual approval in CI] -> push --apply in canary batches.
# Any stage that finds a problem exits non-zero and stops the pipeline. `all` runs every stage
# but apply: applying is always its own, approved call.
set -euo pipefail
STAGE=${1:?stage: generate, lint, deadlock, plan, apply or all}
INTENT=${2:?intent YAML}
INVENTORY=${3:?inventory YAML}
WORK=${4:-pipeline-out}
CONFIGS="$WORK/configs"
BATCH=${ROCE_CFG_BATCH:-1,10%,100%}
mkdir -p "$WORK"

generate() { roce-cfg generate "$INTENT" -o "$CONFIGS" --force > "$WORK/generate.txt"; }
lint() {
  # SARIF is written whatever the result; exit 1 (an error finding) fails the stage afterwards.
  local rc=0
  roce-cfg lint "$CONFIGS" --format sarif > "$WORK/lint.sarif" || rc=$?
  [ "$rc" = 0 ] || roce-cfg lint "$CONFIGS" >&2 || true
  return "$rc"
}
deadlock() {
  local rc=0
  roce-cfg deadlock "$CONFIGS" --fail-links all-single --format junit > "$WORK/deadlock.xml" || rc=$?
  return "$rc"
}
plan() { roce-cfg push "$CONFIGS" -i "$INVENTORY" > "$WORK/push-plan.txt"; }
apply() { roce-cfg push "$CONFIGS" -i "$INVENTORY" --apply --batch "$BATCH" | tee "$WORK/push-apply.txt"; }

case "$STAGE" in
  generate|lint|deadlock|plan|apply) "$STAGE" ;;
  all) generate && lint && deadlock && plan ;;
  *) echo "pipeline.sh: unknown stage '$STAGE'" >&2; exit 2 ;;
esac
echo "pipeline: $STAGE passed ($WORK)"
