//! Running the real `lajan` binary in tests (`serve`, `serve --no-workers`, `worker`): a
//! temporary SQLite database or a PostgreSQL one, a free port, stderr collected line by line,
//! and a stop by SIGTERM (graceful) or SIGKILL (a crash).

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Waits (30 s at most) until something accepts connections on `port`, the process `what` names.
pub(crate) fn wait_until_accepting(port: u16, what: &str) {
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(30), "{what} did not start");
        std::thread::sleep(Duration::from_millis(25));
    }
}

pub(crate) struct Serve {
    child: Option<Child>,
    lines: Receiver<String>,
    seen: Vec<String>,
    pub base: String,
}

impl Serve {
    /// Starts `serve` on `port` over `dir/serve.db` with extra environment, and waits until it
    /// accepts connections.
    pub(crate) fn start(dir: &Path, port: u16, env: &[(&str, &str)]) -> Serve {
        Serve::start_on(&format!("sqlite://{}", dir.join("serve.db").display()), port, env)
    }

    /// Starts `serve` on `port` over the database `url` names (SQLite or PostgreSQL).
    pub(crate) fn start_on(url: &str, port: u16, env: &[(&str, &str)]) -> Serve {
        Serve::run(url, &["serve"], Some(port), env)
    }

    /// Starts `lajan <args>` over the database `url`; with `port`, listening there (and waits
    /// until it accepts connections), without, as a worker (and waits until it says it runs).
    pub(crate) fn run(url: &str, args: &[&str], port: Option<u16>, env: &[(&str, &str)]) -> Serve {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_lajan"));
        cmd.args(args)
            .env("LAJAN_DATABASE_URL", url)
            .env("LAJAN_LOG", "info")
            // Processes side by side cannot share the default metrics address.
            .env("LAJAN_METRICS_LISTEN", "off")
            // The tests' webhook receivers listen on loopback.
            .env("LAJAN_SANDBOX_WEBHOOKS_PRIVATE", "allow")
            .env_remove("LAJAN_CONFIG")
            .env_remove("LAJAN_PUBLIC_URL")
            .env_remove("LAJAN_REDIS_URL")
            .env_remove("LAJAN_NO_WORKERS")
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(port) = port {
            cmd.args(["--listen", &format!("127.0.0.1:{port}")]);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("spawn lajan");
        let stderr = child.stderr.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let base = port.map_or_else(String::new, |port| format!("http://127.0.0.1:{port}"));
        let mut serve = Serve { child: Some(child), lines, seen: Vec::new(), base };
        match port {
            Some(port) => wait_until_accepting(port, &format!("lajan {args:?}")),
            None => {
                let running = serve.wait_for_line(|l| l.contains("workers running"), Duration::from_secs(30));
                assert!(running.is_some(), "lajan {args:?} did not start: {:?}", serve.seen);
            }
        }
        serve
    }

    /// Waits for a stderr line matching `pred` (lines seen earlier count too).
    pub(crate) fn wait_for_line(&mut self, pred: impl Fn(&str) -> bool, timeout: Duration) -> Option<String> {
        if let Some(found) = self.seen.iter().find(|l| pred(l)) {
            return Some(found.clone());
        }
        let deadline = Instant::now() + timeout;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if pred(&line) {
                        return Some(line);
                    }
                }
                Err(_) => return None,
            }
        }
        None
    }

    /// Waits until `count` stderr lines (seen earlier or now) match `pred`; says whether they did.
    pub(crate) fn wait_for_lines(&mut self, pred: impl Fn(&str) -> bool, count: usize, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            if self.seen.iter().filter(|l| pred(l)).count() >= count {
                return true;
            }
            let Some(left) = deadline.checked_duration_since(Instant::now()) else { return false };
            match self.lines.recv_timeout(left) {
                Ok(line) => self.seen.push(line),
                Err(_) => return false,
            }
        }
    }

    /// Every stderr line printed so far.
    pub(crate) fn lines_so_far(&mut self) -> Vec<String> {
        while let Ok(line) = self.lines.try_recv() {
            self.seen.push(line);
        }
        self.seen.clone()
    }

    /// The sandbox key a first start prints.
    pub(crate) fn sandbox_key(&mut self) -> String {
        let line =
            self.wait_for_line(|l| l.contains("sk_test_"), Duration::from_secs(10)).expect("a sandbox key on stderr");
        line.split_whitespace().find(|w| w.starts_with("sk_test_")).unwrap().to_owned()
    }

    /// Kills the process with SIGKILL, as a crash would.
    pub(crate) fn kill9(mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Stops the process with SIGTERM and checks it exits cleanly.
    pub(crate) fn terminate(self) {
        self.send_term();
        self.exits_cleanly();
    }

    /// Sends SIGTERM, leaving the process to stop.
    #[allow(dead_code)] // not every test binary stops a process halfway
    pub(crate) fn send_term(&self) {
        let Some(child) = self.child.as_ref() else { return };
        assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    }

    /// Waits (10 s at most) for the process to exit 0.
    pub(crate) fn exits_cleanly(mut self) {
        let Some(mut child) = self.child.take() else { return };
        let started = Instant::now();
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                assert!(status.success(), "graceful stop exits 0, got {status}");
                return;
            }
            assert!(started.elapsed() < Duration::from_secs(10), "serve ignored SIGTERM");
            std::thread::sleep(Duration::from_millis(25));
        }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
