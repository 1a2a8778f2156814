//! The provider's process in shim mode: started in a process group of its own, its standard
//! error passed on with its end kept for messages, and the whole group ended on every way out
//! of the tap ([`Provider::stop`], and a `SIGKILL` to the group on drop).

use crate::Failure;
use rustix::process::{Pid, Signal, kill_process_group};
use std::ffi::OsStr;
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::process::{Child, ChildStdout};

/// How long the provider has to end after `SIGTERM` (or, when OpenTofu has gone, after its
/// last connection closed) before its group gets `SIGKILL`: 1 s, under the 2 s go-plugin's
/// client gives a plugin before it kills it.
pub(super) const GRACE: Duration = Duration::from_secs(1);

/// How much of the end of the provider's standard error a message quotes: 2 KiB.
pub(super) const STDERR_TAIL_BYTES: usize = 2048;

/// The provider's process and its group.
pub(super) struct Provider {
    child: Child,
    group: Option<Pid>,
    status: Option<ExitStatus>,
    tail: Arc<Mutex<Vec<u8>>>,
    stderr: Option<tokio::task::JoinHandle<()>>,
    watchdog: Option<std::process::Child>,
}

/// The watchdog's work (`tfwire tap --watch-dir DIR`, started by [`Provider::spawn`] as the
/// leader of the process group the provider then joins, with a pipe from the tap as its
/// standard input): once that input ends, which happens whenever the tap ends, even killed by
/// `SIGKILL`, the tap's socket directory removed and `SIGKILL` to the group, itself included.
/// `SIGINT`, `SIGTERM` and `SIGHUP`, which the tap passes on to the provider's group, are
/// caught and ignored, so only its input's end or `SIGKILL` ends it.
pub(super) fn watchdog(dir: &Path) {
    use std::io::Read as _;
    use tokio::signal::unix::{SignalKind, signal};
    // A handler, once registered, stays for the life of the process: the signals are caught
    // (and never read) from here on.
    let ignored = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .inspect(|rt| {
            let _guard = rt.enter();
            for kind in [
                SignalKind::interrupt(),
                SignalKind::terminate(),
                SignalKind::hangup(),
            ] {
                let _ = signal(kind);
            }
        });
    let mut stdin = std::io::stdin();
    let mut buf = [0u8; 64];
    while matches!(stdin.read(&mut buf), Ok(n) if n > 0) {}
    // Only a directory of the tap's own naming.
    if dir
        .file_name()
        .and_then(OsStr::to_str)
        .is_some_and(|n| n.starts_with("tfwire-tap-"))
    {
        let _ = std::fs::remove_dir_all(dir);
    }
    let _ = rustix::process::kill_current_process_group(Signal::KILL);
    drop(ignored);
}

/// Starts the watchdog of `dir` (see [`watchdog`]) as the leader of a new process group (out
/// of the terminal's signals), for the provider to join; `None` if it cannot be started (the
/// provider then leads a group of its own, and the tap goes on without a watchdog).
fn start_watchdog(dir: &Path) -> Option<std::process::Child> {
    let exe = std::env::current_exe().ok()?;
    std::process::Command::new(exe)
        .arg("tap")
        .arg("--watch-dir")
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .ok()
}

impl Provider {
    /// Starts `command` in a process group of its own, with standard output piped (returned)
    /// and standard error passed on to ours as it comes. `socket_dir` becomes the provider's
    /// `PLUGIN_UNIX_SOCKET_DIR`, so that its socket lives (and is removed) with the tap's.
    pub(super) fn spawn(
        command: &[String],
        client_cert: Option<&str>,
        socket_dir: &Path,
    ) -> Result<(Provider, ChildStdout), Failure> {
        // The watchdog first, so that the provider is never without one: it is born into the
        // watchdog's group.
        let mut watchdog = start_watchdog(socket_dir);
        let watchdog_group = watchdog.as_ref().map_or(0, |w| w.id() as i32);
        let mut cmd = tokio::process::Command::new(&command[0]);
        cmd.args(&command[1..])
            .stdin(Stdio::inherit())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("PLUGIN_UNIX_SOCKET_DIR", socket_dir)
            .process_group(watchdog_group)
            .kill_on_drop(true);
        if let Some(pem) = client_cert {
            cmd.env("PLUGIN_CLIENT_CERT", pem);
        }
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                if let Some(mut w) = watchdog.take() {
                    drop(w.stdin.take());
                    let _ = w.wait();
                }
                return Err(Failure::Input(format!("starting {}: {e}", command[0])));
            }
        };
        let group = Pid::from_raw(watchdog_group).or_else(|| {
            child
                .id()
                .and_then(|id| i32::try_from(id).ok())
                .and_then(Pid::from_raw)
        });
        let tail = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().map(|mut err| {
            let tail = tail.clone();
            tokio::spawn(async move {
                let mut out = tokio::io::stderr();
                let mut buf = vec![0u8; 8192];
                let mut passing = true;
                loop {
                    let n = match err.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => n,
                    };
                    {
                        let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                        t.extend_from_slice(&buf[..n]);
                        let excess = t.len().saturating_sub(STDERR_TAIL_BYTES);
                        t.drain(..excess);
                    }
                    // Once our standard error is gone, the provider's is still drained, so
                    // that it never blocks writing.
                    if passing {
                        passing = out.write_all(&buf[..n]).await.is_ok();
                    }
                }
            })
        });
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| Failure::Input("the provider's standard output is not a pipe".into()))?;
        let provider = Provider {
            child,
            group,
            status: None,
            tail,
            stderr,
            watchdog,
        };
        Ok((provider, stdout))
    }

    /// The provider's process group.
    pub(super) fn group(&self) -> Option<Pid> {
        self.group
    }

    /// Waits until the provider's process ends (cancel-safe).
    pub(super) async fn wait(&mut self) -> Result<ExitStatus, Failure> {
        if let Some(s) = self.status {
            return Ok(s);
        }
        let s = self
            .child
            .wait()
            .await
            .map_err(|e| Failure::Input(format!("waiting for the provider: {e}")))?;
        self.status = Some(s);
        Ok(s)
    }

    /// Sends `signal` to the provider's group (an empty group is no error).
    pub(super) fn signal(&self, signal: Signal) {
        if let Some(g) = self.group {
            let _ = kill_process_group(g, signal);
        }
    }

    /// Ends the provider's group: `SIGTERM`, [`GRACE`] for the provider to end, then `SIGKILL`
    /// to whatever is left of the group (children it left behind included).
    pub(super) async fn stop(&mut self) {
        if self.status.is_none() {
            self.signal(Signal::TERM);
            let _ = tokio::time::timeout(GRACE, self.wait()).await;
        }
        self.kill().await;
    }

    /// `SIGKILL` to the group, then waits for the provider's process (a killed process ends
    /// at once).
    pub(super) async fn kill(&mut self) {
        self.signal(Signal::KILL);
        let _ = tokio::time::timeout(GRACE, self.wait()).await;
    }

    /// Waits up to [`GRACE`] for the provider to end by itself (after OpenTofu's shutdown
    /// call), then ends its group: its status when it ended by itself, `None` when it had to
    /// be killed. Either way the process has ended when this returns, so a [`Provider::stop`]
    /// after it waits no more.
    pub(super) async fn reap(&mut self) -> Option<ExitStatus> {
        let status = match tokio::time::timeout(GRACE, self.wait()).await {
            Ok(s) => s.ok(),
            Err(_) => None,
        };
        self.kill().await;
        status
    }

    /// The end of what the provider wrote to its standard error (at most
    /// [`STDERR_TAIL_BYTES`]), for a message; empty if it wrote nothing. Waits briefly for the
    /// last of it to arrive.
    pub(super) async fn stderr_tail(&mut self) -> String {
        if let Some(task) = self.stderr.take() {
            let _ = tokio::time::timeout(Duration::from_millis(500), task).await;
        }
        let t = self.tail.lock().unwrap_or_else(|e| e.into_inner());
        let text = String::from_utf8_lossy(&t);
        let text = inline(text.trim());
        if text.is_empty() {
            String::new()
        } else if t.len() >= STDERR_TAIL_BYTES {
            format!("; the end of its standard error: \"…{text}\"")
        } else {
            format!("; its standard error: \"{text}\"")
        }
    }

    /// A message for a provider that ended (`status`) at the wrong time (`when`).
    pub(super) async fn ended(&mut self, name: &OsStr, status: ExitStatus, when: &str) -> String {
        format!(
            "{} ended ({status}) {when}{}",
            inline(&name.to_string_lossy()),
            self.stderr_tail().await
        )
    }
}

/// `text` on one line: line feeds and other controls as JSON escapes (`\n`, `\u001b`).
pub(super) fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Writing to a String cannot fail.
    let _ = tfwire_json::write_safe_inline(&mut out, text);
    out
}

impl Drop for Provider {
    fn drop(&mut self) {
        // Whatever way the tap leaves, nothing of the provider's group stays behind.
        self.signal(Signal::KILL);
        // The watchdog ends as its input does; waiting for it leaves no process behind.
        if let Some(mut w) = self.watchdog.take() {
            drop(w.stdin.take());
            let _ = w.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// A provider that ignores the end of its client and `SIGTERM`: `reap` gives it
    /// [`GRACE`], kills it, and the `stop` every way out of the tap makes afterwards has
    /// nothing left to wait for.
    #[tokio::test]
    async fn reap_then_stop_waits_one_grace() {
        let mut cmd = tokio::process::Command::new("sh");
        cmd.args(["-c", "trap '' TERM; exec sleep 30"])
            .process_group(0)
            .kill_on_drop(true);
        let child = cmd.spawn().expect("sleep starts");
        let group = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .and_then(Pid::from_raw);
        let mut provider = Provider {
            child,
            group,
            status: None,
            tail: Arc::default(),
            stderr: None,
            watchdog: None,
        };
        let t0 = Instant::now();
        assert_eq!(provider.reap().await, None, "killed, not ended by itself");
        let reaped = t0.elapsed();
        provider.stop().await;
        let total = t0.elapsed();
        assert!(reaped >= GRACE, "{reaped:?}");
        assert!(provider.status.is_some(), "the process was waited for");
        assert!(
            total < GRACE + GRACE / 2,
            "reap and stop took {total:?}, more than one grace period and a half"
        );
    }
}
