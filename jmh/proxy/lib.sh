# Shared by jmh/proxy-bench: tools, processes (started, tracked and stopped by their own pid), the
# backends, HAProxy and Shardwise instances. Sourced, not run; expects ROOT, WORK and JAVA to be set.

PIDS=()          # every process this run started, in start order; stopped in reverse
PID_NAMES=()
JFR_N=0          # numbers JFR recordings: the pool sweep restarts servers under the same name

log() { printf '[proxy-bench %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# apt-get installs what is missing (sysbench, the MariaDB client tools with mysqlslap, HAProxy);
# nothing is installed when all are there, so a second run never touches apt.
ensure_tools() {
  local missing=()
  command -v sysbench >/dev/null || missing+=(sysbench)
  command -v mariadb-slap >/dev/null || command -v mysqlslap >/dev/null || missing+=(mariadb-client)
  command -v mariadb >/dev/null || command -v mysql >/dev/null || missing+=(mariadb-client)
  command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
  [ ${#missing[@]} -eq 0 ] && return 0
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
  log "installing ${missing[*]} with apt-get"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq >&2 || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2 || die "apt-get install ${missing[*]} failed"
}

slap_bin() { command -v mariadb-slap || command -v mysqlslap; }
client_bin() { command -v mariadb || command -v mysql; }
haproxy_bin() { command -v haproxy || echo /usr/sbin/haproxy; }

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Parent-death signal: a process started here gets SIGTERM if this script dies without stopping
# it (SIGKILL, OOM), so not even a killed run leaves servers behind. setpriv execs the command, so
# the pid stays the server's own. Without util-linux's setpriv, only the EXIT trap stops them.
PDEATH=()
setpriv --pdeathsig TERM -- true 2>/dev/null && PDEATH=(setpriv --pdeathsig TERM --)

# Starts "$@" in the background with its output in $WORK/<name>.log. The command is exec'd by the
# forked shell, so $! is the process itself (not a subshell) and stopping it by pid reaches it.
# The log is emptied here, before the fork: the child's own truncation happens later, and a
# readiness check must never read the previous instance's "ready" line.
start_bg() {
  local name=$1; shift
  : >"$WORK/$name.log"
  "${PDEATH[@]}" "$@" >>"$WORK/$name.log" 2>&1 &
  PIDS+=($!)
  PID_NAMES+=("$name")
  LAST_PID=$!
}

# Stops one tracked process: SIGTERM, up to 60 s for its shutdown hooks (the backend JVM stops
# mariadbd in its hook, which must not be cut short), then SIGKILL.
stop_pid() {
  local pid=$1 name=$2 i
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 600; i++)); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    sleep 0.1
  done
  log "$name (pid $pid) ignored SIGTERM for 60 s: SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

pid_of() { # the pid of the tracked process started under this name (the newest one)
  local i pid=""
  for i in "${!PIDS[@]}"; do # sparse after stop_named: walk the indexes that are left
    [ "${PID_NAMES[$i]}" = "$1" ] && pid=${PIDS[$i]}
  done
  [ -n "$pid" ] || die "no process named $1 is running"
  echo "$pid"
}

stop_named() { # stops the tracked process started under this name, and forgets it
  local i
  for i in "${!PIDS[@]}"; do
    if [ "${PID_NAMES[$i]}" = "$1" ]; then
      stop_pid "${PIDS[$i]}" "$1"
      unset 'PIDS[i]' 'PID_NAMES[i]'
    fi
  done
}

stop_all() {
  local i idx=("${!PIDS[@]}")
  for ((i = ${#idx[@]} - 1; i >= 0; i--)); do
    stop_pid "${PIDS[${idx[$i]}]}" "${PID_NAMES[${idx[$i]}]}"
  done
  PIDS=()
  PID_NAMES=()
}

# Waits until the log of a tracked process matches a pattern; fails with the log if it dies first.
await_log() {
  local name=$1 pid=$2 pattern=$3 timeout=${4:-180} i
  for ((i = 0; i < timeout * 5; i++)); do
    grep -qE "$pattern" "$WORK/$name.log" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || { tail -40 "$WORK/$name.log" >&2; die "$name exited before it was ready"; }
    sleep 0.2
  done
  tail -40 "$WORK/$name.log" >&2
  die "$name not ready after ${timeout} s"
}

# The embedded MariaDB (or SHARDWISE_TEST_MYSQL's server) with the databases laid out; sets BACKEND_*.
start_backends() {
  log "starting the backend (${SHARDWISE_TEST_MYSQL:+external server, }${SHARDWISE_TEST_MYSQL:-embedded MariaDB; the first start unpacks it})"
  rm -f "$WORK/backend.env"
  # shellcheck disable=SC2086
  start_bg backends "$JAVA" -Xmx512m ${BACKEND_JVM_OPTS:-} -cp "$BENCH_JAR" io.shardwise.jmh.proxy.ProxyBackends "$WORK/backend.env"
  await_log backends "$LAST_PID" 'proxy-backends\] ready' 300
  # shellcheck disable=SC1091
  . "$WORK/backend.env"
  log "backend: $BACKEND_KIND $BACKEND_HOST:$BACKEND_PORT ($BACKEND_VERSION)"
}

# HAProxy in mode tcp: the plain relay, the hop any proxy pays. Sets RELAY_PORT.
start_relay() {
  RELAY_PORT=$(free_port)
  sed -e "s/@RELAY_PORT@/$RELAY_PORT/" -e "s/@BACKEND_HOST@/$BACKEND_HOST/" -e "s/@BACKEND_PORT@/$BACKEND_PORT/" \
    "$ROOT/jmh/proxy/haproxy.cfg" >"$WORK/haproxy.cfg"
  start_bg relay "$(haproxy_bin)" -f "$WORK/haproxy.cfg" -db
  local i
  for ((i = 0; i < 100; i++)); do
    sql_at "$RELAY_PORT" "$BACKEND_USER" "$BACKEND_PASSWORD" "" "SELECT 1" >/dev/null 2>&1 && { log "relay: HAProxy on $RELAY_PORT"; return 0; }
    kill -0 "$LAST_PID" 2>/dev/null || { cat "$WORK/relay.log" >&2; die "HAProxy exited"; }
    sleep 0.2
  done
  die "HAProxy relay not reachable on $RELAY_PORT"
}

sql_at() { # port user password database statement
  "$(client_bin)" --protocol=tcp -h127.0.0.1 -P"$1" -u"$2" ${3:+-p"$3"} ${4:+"$4"} -N -e "$5"
}

backend_url() { # database
  echo "jdbc:mysql://$BACKEND_HOST:$BACKEND_PORT/$1?sslMode=DISABLED&allowPublicKeyRetrieval=true"
}

backend_yaml() { # name database pool
  printf '  %s: { url: "%s", user: "%s", password: "%s", pool: { max: %s, minIdle: %s } }\n' \
    "$1" "$(backend_url "$2")" "$BACKEND_USER" "$BACKEND_PASSWORD" "$3" "$3"
}

# The configurations the experiments serve, all with schema "pb" and the client account app/app.
#   norules:       one backend (the direct database), no table rules: Shardwise as a pure proxy
#   unpartitioned: the same database, `small` named by a single-table rule
#   sharded:       two shard databases; `small` split by id mod 2, sbtest1 by a hash of id
write_config() { # kind pool -> path
  local kind=$1 pool=$2 file="$WORK/$1-pool$2.yaml"
  {
    echo "schema: pb"
    echo "backends:"
    case $kind in
      norules | unpartitioned) backend_yaml ds0 pb_direct "$pool" ;;
      sharded) backend_yaml ds0 pb_0 "$pool"; backend_yaml ds1 pb_1 "$pool" ;;
    esac
    echo "defaultBackend: ds0"
    case $kind in
      unpartitioned) echo "tables:"; echo "  small: { backend: ds0 }" ;;
      sharded)
        echo "tables:"
        echo '  small: { nodes: "ds${0..1}.small", key: id, algorithm: { type: mod } }'
        echo '  sbtest1: { nodes: "ds${0..1}.sbtest1", key: id, algorithm: { type: hash } }' ;;
    esac
    echo "server:"
    echo "  users: [ { name: app, password: app, schemas: [pb] } ]"
    # 40 TLS logins at once on a loaded 2-core machine can outlast the 10 s default, and 100 such
    # timeouts in a row would block 127.0.0.1 (1129) for the rest of the run: measure, do not police
    echo "  connectTimeout: 120s"
    echo "  maxConnectErrors: 1000000"
    echo "  maxConnections: 4096" # the concurrency sweep goes to 1,024 clients (the default admits 1,000)
  } >"$file"
  echo "$file"
}

# One Shardwise server (the same jar ./shardwise runs) on an ephemeral port; sets SW_PORT[name].
declare -A SW_PORT
start_shardwise() { # name kind pool [server jar]
  local name=$1 config jar=${4:-$SERVER_JAR}
  config=$(write_config "$2" "$3")
  # shellcheck disable=SC2086
  local jfr=()
  [ -n "${JFR:-}" ] && jfr=("-XX:StartFlightRecording=filename=$WORK/$name-pool$3-$((++JFR_N)).jfr,settings=profile,dumponexit=true")
  # shellcheck disable=SC2086
  start_bg "$name" "$JAVA" $SHARDWISE_JVM_OPTS ${SHARDWISE_EXTRA_OPTS:-} "${jfr[@]}" -jar "$jar" --config "$config" --port 0
  await_log "$name" "$LAST_PID" "Shardwise serves schema 'pb' on" 180
  SW_PORT[$name]=$(sed -n "s/.*Shardwise serves schema 'pb' on [0-9.]*:\([0-9]*\).*/\1/p" "$WORK/$name.log" | head -1)
  [ -n "${SW_PORT[$name]}" ] || { cat "$WORK/$name.log" >&2; die "$name: no port in its log"; }
  log "$name: Shardwise ($2, pool $3 per backend) on ${SW_PORT[$name]}"
}

# Where a variant's clients connect: sets EP_PORT, EP_USER, EP_PASSWORD and EP_DB.
endpoint() {
  case $1 in
    direct | relay | relay-tls)
      EP_PORT=$BACKEND_PORT; [ "$1" != direct ] && EP_PORT=$RELAY_PORT
      EP_USER=$BACKEND_USER; EP_PASSWORD=$BACKEND_PASSWORD; EP_DB=pb_direct ;;
    sw-partitioned) EP_PORT=${SW_PORT[sw-sharded]}; EP_USER=app; EP_PASSWORD=app; EP_DB=pb ;;
    sw-*) EP_PORT=${SW_PORT[$1]}; EP_USER=app; EP_PASSWORD=app; EP_DB=pb ;;
    *) die "unknown variant $1" ;;
  esac
  [ -n "$EP_PORT" ] || die "variant $1 is not running"
}

# The variants rotated by one place per step, so no variant always runs first (or right after a
# particular other one): each step's drift and warm-up effects fall on all variants alike.
rotate() { # step variants...
  local step=$1; shift
  local n=$# i
  local v=("$@")
  for ((i = 0; i < n; i++)); do echo "${v[$(((i + step) % n))]}"; done
}
