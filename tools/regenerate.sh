#!/usr/bin/env bash
# Regenerates everything derived from the protocol catalog (Sources/VCProtoCore/Catalog), in dependency
# order. Run it after editing the catalog; the tests and CI then check that nothing is stale.
#
#   tools/regenerate.sh           regenerate
#   tools/regenerate.sh --check   regenerate, then fail if anything tracked changed (CI)
#
# Order: the Swift model (the CLI is rebuilt from it), Schema/ (read by the vector generator), the
# golden vectors (messages, envelope, auth, sessions), the sample captures, and last the message
# reference docs/MESSAGES.md and STANDARDS.md's generated table (which embed vector examples).
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
[ "${1:-}" = "--check" ] && check=true

# The generators are the maintainers' executable, vcproto-dev (the shipped vcproto does not link them).
vcproto_dev() { swift run --quiet vcproto-dev "$@"; }

echo "--- Swift model"
vcproto_dev generate-model
echo "--- Schema/"
vcproto_dev schema
echo "--- Vectors/"
for script in tools/make_message_vectors.py tools/make_envelope_vectors.py tools/make_auth_vectors.py \
  tools/make_negotiation_vectors.py \
  tools/make_session_vectors.py; do
  [ -f "$script" ] && python3 "$script"
done
echo "--- Samples/"
python3 tools/make_cli_samples.py
echo "--- docs/MESSAGES.md, STANDARDS.md"
vcproto_dev generate-spec
python3 tools/standards_toc.py

if $check; then
  if ! git diff --exit-code --stat; then
    echo "generated artifacts are stale: run tools/regenerate.sh and commit the result" >&2
    exit 1
  fi
  untracked=$(git ls-files --others --exclude-standard -- Sources Schema Vectors Samples STANDARDS.md docs)
  if [ -n "$untracked" ]; then
    echo "regeneration created untracked files (commit them):" >&2
    echo "$untracked" >&2
    exit 1
  fi
fi
