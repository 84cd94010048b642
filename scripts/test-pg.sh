#!/usr/bin/env bash
# The whole test suite on PostgreSQL: uses TEST_DATABASE_URL when given (a server where this user
# may create databases), else starts a throwaway cluster for the run and removes it afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
# Left to the SQLite run (npm test), which a second run on PostgreSQL would only repeat: the
# packaging, lint and markup tests, which never open a store; the fuzz test of the build, whose
# requests the fuzz test of the source sends here too (the built service on PostgreSQL is the
# process and cluster tests'); and the browser tests, whose pages and admin screens call the same
# API the other tests call here.
export SVC_TEST_SKIP="${SVC_TEST_SKIP-test/build/,test/tooling/,test/markup/,test/security/fuzz-built.test.ts,*-browser.test.ts}"
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  exec node scripts/run-tests.mjs "$@"
fi
read -r dir url < <(bash scripts/pg-cluster.sh start)
# On a failure, the server's own account of terminated sessions and errors is shown before the
# cluster is removed (a test that saw its connection ended by the server is otherwise a mystery).
trap 'status=$?; if [ "$status" -ne 0 ]; then echo "--- PostgreSQL log (terminations, errors):" >&2; grep -E "terminat|FATAL|PANIC|LOG:  (server process|database system)" "$dir/log" | tail -n 40 >&2 || true; fi; bash scripts/pg-cluster.sh stop "$dir"' EXIT
TEST_DATABASE_URL="$url" node scripts/run-tests.mjs "$@"
