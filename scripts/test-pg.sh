#!/usr/bin/env bash
# The whole test suite on PostgreSQL: uses TEST_DATABASE_URL when given (a server where this user
# may create databases), else starts a throwaway cluster for the run and removes it afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  exec node scripts/run-tests.mjs "$@"
fi
read -r dir url < <(bash scripts/pg-cluster.sh start)
trap 'bash scripts/pg-cluster.sh stop "$dir"' EXIT
TEST_DATABASE_URL="$url" node scripts/run-tests.mjs "$@"
