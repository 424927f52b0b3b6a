#!/usr/bin/env bash
# Runs COMMAND with a throwaway PostgreSQL primary and a hot standby of it, then stops both:
#
#     scripts/with-postgres.sh COMMAND [ARGUMENT...]
#
# Both live in one temporary folder and listen only on Unix sockets in it (no TCP port is taken),
# with trust authentication for the user postgres. The primary is made by initdb; the standby by
# pg_basebackup -R -X stream, so it replays the primary's changes as any hot standby does.
# COMMAND sees their URLs (database transit) in the environment:
#     TRANSIT_TEST_POSTGRES           the primary
#     TRANSIT_TEST_POSTGRES_STANDBY   the standby
#     TRANSIT_TEST_POSTGRES_PRIMARY   a script that stops (`stop`) or starts (`start`) the primary,
#                                     for the fault tests
# Where PostgreSQL is not installed (apt install postgresql), one line says so and COMMAND runs
# without them: the PostgreSQL tests then skip (and fail under CI=true).
# PostgreSQL refuses to run as root, so as root the servers run as the user nobody.
set -euo pipefail

bin=
for candidate in /usr/lib/postgresql/*/bin; do
  [ -x "$candidate/initdb" ] && bin=$candidate
done
if [ -z "$bin" ] && command -v initdb > /dev/null; then bin=$(dirname "$(command -v initdb)"); fi
if [ -z "$bin" ]; then
  echo "transit tests: PostgreSQL is not installed (apt install postgresql); the PostgreSQL tests will skip" >&2
  exec "$@"
fi

folder=$(mktemp -d "${TMPDIR:-/tmp}/transit-postgres-test-XXXXXX")
as=()
if [ "$(id -u)" = 0 ]; then
  chown nobody "$folder"
  as=(runuser -u nobody --)
fi

stop() {
  for server in standby primary; do
    [ -f "$folder/$server/postmaster.pid" ] && "${as[@]}" "$bin/pg_ctl" -D "$folder/$server" -m immediate stop > /dev/null 2>&1 || true
  done
  rm -rf "$folder"
}
trap stop EXIT

start() {  # start SERVER PORT
  "${as[@]}" "$bin/pg_ctl" -D "$folder/$1" -l "$folder/$1.log" -w -t 60 \
    -o "-k $folder -p $2 -c listen_addresses=''" start > /dev/null ||
    { echo "transit tests: the PostgreSQL $1 did not start:" >&2; tail -5 "$folder/$1.log" >&2; exit 1; }
}

"${as[@]}" "$bin/initdb" -D "$folder/primary" -A trust -U postgres --no-sync > "$folder/initdb.log" 2>&1 ||
  { cat "$folder/initdb.log" >&2; exit 1; }
start primary 5432
"$bin/createdb" -h "$folder" -p 5432 -U postgres transit
"${as[@]}" "$bin/pg_basebackup" -h "$folder" -p 5432 -U postgres -D "$folder/standby" -R -X stream --checkpoint=fast --no-sync
start standby 5433

# The primary's switch, for tests that stop it while the standby serves (and start it again).
cat > "$folder/primary.sh" <<SCRIPT
#!/usr/bin/env bash
set -euo pipefail
case "\$1" in
  stop) ${as[*]} "$bin/pg_ctl" -D "$folder/primary" -m fast -w stop > /dev/null ;;
  start) ${as[*]} "$bin/pg_ctl" -D "$folder/primary" -l "$folder/primary.log" -w -t 60 -o "-k $folder -p 5432 -c listen_addresses=''" start > /dev/null ;;
  *) echo "usage: \$0 stop|start" >&2; exit 64 ;;
esac
SCRIPT
chmod +x "$folder/primary.sh"

export TRANSIT_TEST_POSTGRES_PRIMARY="$folder/primary.sh"
export TRANSIT_TEST_POSTGRES="postgresql:///transit?host=$folder&port=5432&user=postgres"
export TRANSIT_TEST_POSTGRES_STANDBY="postgresql:///transit?host=$folder&port=5433&user=postgres"
"$@"
