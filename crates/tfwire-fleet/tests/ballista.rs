//! The fleet's tables on a Ballista cluster: a scheduler and two executors, each a
//! `tfwire-fleet` process on loopback ports picked here, answer the ten queries of
//! `benches/fleet/queries.json` over `corpus/fleet/` with the rows one process gives (and
//! the reference's answers), both executors doing work, and so do other shapes of
//! `UNION ALL` under `ORDER BY`; and the cluster's processes end when their parent does.

use datafusion::prelude::{SessionConfig, SessionContext};
use std::io::{BufRead as _, BufReader, Read as _};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tfwire_arrow::{FleetSchemas, Options};

const BIN: &str = env!("CARGO_BIN_EXE_tfwire-fleet");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[path = "../../tfwire-arrow/tests/harness/tempdir.rs"]
mod tempdir;
use tempdir::TempDir;

/// The processes a test started: every one killed and reaped when dropped, whether the
/// test passed or panicked.
struct Children {
    started: Vec<(String, Child)>,
    logs: PathBuf,
}

impl Children {
    /// Starts `tfwire-fleet ARGS`, its standard error in `LOGS/<name>.log`.
    fn start(&mut self, name: &str, args: &[String]) {
        let log = std::fs::File::create(self.logs.join(format!("{name}.log"))).unwrap();
        let child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("starting the {name}: {e}"));
        self.started.push((name.to_owned(), child));
    }

    /// Waits until something listens on `port`; fails, with its log, if the process
    /// `name` ends first or a minute passes.
    fn wait_listening(&mut self, name: &str, port: u16) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_ok() {
                return;
            }
            let (_, child) = self.started.iter_mut().find(|(n, _)| n == name).unwrap();
            if let Some(status) = child.try_wait().unwrap() {
                panic!("the {name} ended ({status}): {}", self.log(name));
            }
            assert!(
                Instant::now() < deadline,
                "the {name} does not listen on port {port} after a minute: {}",
                self.log(name)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.logs.join(format!("{name}.log"))).unwrap_or_default()
    }
}

impl Drop for Children {
    fn drop(&mut self) {
        for (_, child) in &mut self.started {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `n` distinct free loopback ports (all held open together while picked).
fn free_ports(n: usize) -> Vec<u16> {
    let held: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap())
        .collect();
    held.iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

/// A scheduler and two executors (two task slots each) on loopback.
struct Cluster {
    scheduler: u16,
    work_dirs: [PathBuf; 2],
    children: Children,
    _dir: TempDir,
}

impl Cluster {
    /// `name`: the test's, for a directory of its own (tests run in parallel).
    fn start(name: &str) -> Cluster {
        let dir = TempDir::new(&format!("ballista-{name}"));
        let ports = free_ports(5);
        let mut children = Children {
            started: Vec::new(),
            logs: dir.0.clone(),
        };
        let scheduler = ports[0];
        children.start(
            "scheduler",
            &[
                "scheduler".into(),
                "--bind".into(),
                format!("127.0.0.1:{scheduler}"),
            ],
        );
        children.wait_listening("scheduler", scheduler);
        let work_dirs = [dir.0.join("executor-1"), dir.0.join("executor-2")];
        for (i, work) in work_dirs.iter().enumerate() {
            let (flight, grpc) = (ports[1 + 2 * i], ports[2 + 2 * i]);
            let name = format!("executor-{}", i + 1);
            children.start(
                &name,
                &[
                    "executor".into(),
                    "--scheduler".into(),
                    format!("127.0.0.1:{scheduler}"),
                    "--bind".into(),
                    format!("127.0.0.1:{flight}"),
                    "--grpc-port".into(),
                    grpc.to_string(),
                    "--work-dir".into(),
                    work.display().to_string(),
                    "--vcores".into(),
                    "2".into(),
                ],
            );
            children.wait_listening(&name, flight);
            children.wait_listening(&name, grpc);
        }
        Cluster {
            scheduler,
            work_dirs,
            children,
            _dir: dir,
        }
    }

    fn url(&self) -> String {
        format!("df://127.0.0.1:{}", self.scheduler)
    }

    /// Whether each executor wrote results of any task to its work directory.
    fn worked(&self) -> [bool; 2] {
        self.work_dirs.clone().map(|d| has_file(&d))
    }

    fn logs(&self) -> String {
        ["scheduler", "executor-1", "executor-2"]
            .iter()
            .map(|n| format!("--- {n}:\n{}", self.children.log(n)))
            .collect()
    }
}

fn has_file(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let path = e.path();
            if path.is_dir() { has_file(&path) } else { true }
        })
    })
}

/// The committed small fleet: its schema cache and its inputs (states and plans).
fn small_fleet() -> (PathBuf, Vec<String>) {
    let fleet = root().join("corpus/fleet");
    let inputs = ["states", "plans"]
        .iter()
        .map(|d| fleet.join(d).display().to_string())
        .collect();
    (fleet.join("schemas"), inputs)
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every table of the small fleet registered in `ctx`.
async fn register(ctx: &SessionContext) {
    let (schemas, inputs) = small_fleet();
    let schemas = Arc::new(FleetSchemas::open(&schemas).unwrap());
    let found = tfwire_arrow::discover(&inputs).await.unwrap();
    tfwire_fleet::register(ctx, &found, schemas, Options::default()).unwrap();
}

async fn rows(ctx: &SessionContext, sql: &str) -> Result<Vec<Vec<Option<String>>>, String> {
    let frame = ctx.sql(sql).await.map_err(|e| e.to_string())?;
    let batches = frame.collect().await.map_err(|e| e.to_string())?;
    Ok(tfwire_fleet::canonical_rows(&batches))
}

/// `sql`'s rows from the cluster; fails with the cluster's logs on an error, or when no
/// answer comes within two minutes (lost executors leave a query waiting for ever).
async fn cluster_rows(
    ctx: &SessionContext,
    sql: &str,
    cluster: &Cluster,
) -> Vec<Vec<Option<String>>> {
    match tokio::time::timeout(Duration::from_secs(120), rows(ctx, sql)).await {
        Ok(Ok(rows)) => rows,
        Ok(Err(e)) => panic!("{sql} on the cluster: {e}\n{}", cluster.logs()),
        Err(_) => panic!(
            "{sql} on the cluster: no answer after two minutes\n{}",
            cluster.logs()
        ),
    }
}

/// The reference's answer to query `id`, as canonical rows.
fn answer(answers: &serde_json::Value, id: &str) -> Vec<Vec<Option<String>>> {
    let rows = answers[id]
        .as_array()
        .unwrap_or_else(|| panic!("no answer for {id}"));
    rows.iter()
        .map(|row| {
            row.as_array()
                .unwrap()
                .iter()
                .map(|cell| match cell {
                    serde_json::Value::Null => None,
                    serde_json::Value::String(s) => Some(s.clone()),
                    other => panic!("{id}: a cell that is not canonical text: {other}"),
                })
                .collect()
        })
        .collect()
}

/// More `UNION ALL`s under an `ORDER BY` whose branches select different constants (what
/// the scheduler's sorting must get right for any query, not only `withheld_secrets`): three
/// branches with a `LIMIT`, a descending constant key first, and an aggregate over the union.
const UNION_SHAPES: &[&str] = &[
    "SELECT workspace, address, 'a' AS k FROM aws_acm_certificate WHERE phase = 'state' \
     UNION ALL SELECT workspace, address, 'b' AS k FROM aws_s3_bucket WHERE phase = 'state' \
     UNION ALL SELECT workspace, address, 'c' AS k FROM aws_security_group WHERE phase = 'state' \
     ORDER BY workspace, address, k LIMIT 7",
    "SELECT workspace, address, 'a' AS k FROM aws_acm_certificate WHERE phase = 'state' \
     UNION ALL SELECT workspace, address, 'b' AS k FROM aws_s3_bucket WHERE phase = 'state' \
     ORDER BY k DESC, workspace, address",
    "SELECT k, workspace, count(*) AS n FROM (\
     SELECT workspace, 'a' AS k FROM aws_acm_certificate WHERE phase = 'state' \
     UNION ALL SELECT workspace, 'b' AS k FROM aws_s3_bucket WHERE phase = 'state') \
     GROUP BY k, workspace ORDER BY k, workspace",
];

#[test]
fn the_ten_queries_on_two_executors_equal_one_process() {
    let started = Instant::now();
    let cluster = Cluster::start("ten-queries");
    let queries = read_json(&root().join("benches/fleet/queries.json"));
    let queries = queries.as_array().unwrap();
    assert_eq!(queries.len(), 10, "benches/fleet/queries.json");
    let answers = read_json(&root().join("corpus/fleet/answers.json"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let mut worked = [false; 2];
    runtime.block_on(async {
        // Four partitions a scan: two executors with two slots each.
        let config = || SessionConfig::new().with_target_partitions(4);
        let local = SessionContext::new_with_config(config());
        register(&local).await;
        // The client asks for sorts in every partition (DataFusion's default): the
        // scheduler plans without them whatever the client sends.
        let remote_config = config().set_bool("datafusion.optimizer.repartition_sorts", true);
        let remote = tfwire_fleet::distributed::remote_context(&cluster.url(), remote_config)
            .await
            .unwrap();
        register(&remote).await;
        for query in queries {
            let id = query["id"].as_str().unwrap();
            let sql = query["sql"].as_str().unwrap();
            let one = rows(&local, sql).await.unwrap();
            let distributed = cluster_rows(&remote, sql, &cluster).await;
            assert_eq!(
                distributed, one,
                "{id}: the cluster's rows and one process's"
            );
            assert_eq!(one, answer(&answers, id), "{id}: the reference's answer");
            for (w, now) in worked.iter_mut().zip(cluster.worked()) {
                *w |= now;
            }
        }
        for sql in UNION_SHAPES {
            let one = rows(&local, sql).await.unwrap();
            assert!(one.len() > 2, "{sql}: {one:?}");
            let distributed = cluster_rows(&remote, sql, &cluster).await;
            assert_eq!(
                distributed, one,
                "{sql}: the cluster's rows and one process's"
            );
        }
    });
    assert_eq!(
        worked,
        [true, true],
        "each executor wrote task results to its work directory"
    );
    eprintln!(
        "the ten queries on a scheduler and two executors: {:.1} s (start included)",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn query_ballista_prints_what_query_prints() {
    let cluster = Cluster::start("query-ballista");
    let (schemas, inputs) = small_fleet();
    let sql = "SELECT workspace, count(*) AS buckets FROM aws_s3_bucket \
               WHERE phase = 'state' AND acl = 'public-read' GROUP BY workspace ORDER BY workspace";
    let run = |extra: &[String]| {
        let out = Command::new(BIN)
            .arg("query")
            .args(extra)
            .args(["--format", "json", "--schemas"])
            .arg(&schemas)
            .arg(sql)
            .args(&inputs)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}\n{}",
            String::from_utf8_lossy(&out.stderr),
            cluster.logs()
        );
        out.stdout
    };
    let one = run(&[]);
    let distributed = run(&["--ballista".into(), cluster.url()]);
    assert!(one.len() > 2, "{}", String::from_utf8_lossy(&one));
    assert_eq!(
        String::from_utf8_lossy(&distributed),
        String::from_utf8_lossy(&one)
    );

    // A scheduler that is not there: an error, not a hang.
    let gone = free_ports(1)[0];
    let out = Command::new(BIN)
        .args(["query", "--ballista", &format!("df://127.0.0.1:{gone}")])
        .arg("--schemas")
        .arg(&schemas)
        .arg(sql)
        .args(&inputs)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        !out.stderr.is_empty(),
        "an unreachable scheduler fails with a message"
    );
}

/// Whether process `pid` still runs (a zombie waiting for its reaper has ended).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command's name in parentheses.
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z')),
        Err(_) => false,
    }
}

#[test]
fn the_cluster_ends_with_its_parent() {
    let dir = TempDir::new("parent");
    let ports = free_ports(3);
    // A shell starts a scheduler and an executor, each told to follow the shell, prints
    // their process ids and waits; then the shell is killed.
    let script = format!(
        r#""$0" scheduler --bind 127.0.0.1:{s} --parent $$ 2>"$1/scheduler.log" & echo $!
"$0" executor --scheduler 127.0.0.1:{s} --bind 127.0.0.1:{f} --grpc-port {g} --work-dir "$1/work" --parent $$ 2>"$1/executor.log" & echo $!
wait"#,
        s = ports[0],
        f = ports[1],
        g = ports[2],
    );
    let mut shell = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(BIN)
        .arg(&dir.0)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(shell.stdout.take().unwrap());
    let mut pids = Vec::new();
    for _ in 0..2 {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        pids.push(line.trim().parse::<u32>().unwrap());
    }
    // Whatever happens below, nothing started here outlives the test.
    struct Reap(Vec<u32>);
    impl Drop for Reap {
        fn drop(&mut self) {
            for pid in &self.0 {
                if alive(*pid) {
                    let _ = Command::new("kill")
                        .args(["-KILL", &pid.to_string()])
                        .status();
                }
            }
        }
    }
    let _reap = Reap(pids.clone());
    let deadline = Instant::now() + Duration::from_secs(60);
    for port in [ports[0], ports[1]] {
        while TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "the cluster does not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    assert!(pids.iter().all(|&p| alive(p)));
    shell.kill().unwrap();
    shell.wait().unwrap();
    let mut rest = String::new();
    let _ = out.read_to_string(&mut rest);
    let deadline = Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|&p| alive(p)) {
        assert!(
            Instant::now() < deadline,
            "the scheduler or executor outlived its parent by 10 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
