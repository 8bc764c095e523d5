//! The official Python `stellar-sdk`, pinned, in a virtualenv under `target/`, for tests that
//! check Lajan's Stellar output with the SDK wallets use (envelopes, stellar.toml, challenges).
//! Installed from PyPI on first use and reused; one process installs while the others wait.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Pinned so the reference does not drift under us; 16.x supports CPython 3.10+.
pub const STELLAR_SDK_VERSION: &str = "16.1.1";

/// The virtualenv's python with the pinned SDK importable, creating or repairing the virtualenv
/// as needed; `Err` says why it cannot (no python3, no PyPI).
pub fn stellar_sdk_python() -> Result<PathBuf, String> {
    // crates/lajan-ledger -> workspace root; ancestors() keeps the printed path free of `..`.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).ok_or("no workspace root")?;
    let target = root.join("target");
    std::fs::create_dir_all(&target).map_err(|e| format!("cannot create {}: {e}", target.display()))?;
    // Test binaries run at once: the first to hold the lock installs, the others find it done.
    let lock = std::fs::File::create(target.join("stellar-sdk-venv.lock")).map_err(|e| e.to_string())?;
    lock.lock().map_err(|e| format!("cannot lock the virtualenv: {e}"))?;
    let venv = target.join("stellar-sdk-venv");
    let python = venv.join("bin").join("python");
    if installed_version(&python).as_deref() == Some(STELLAR_SDK_VERSION) {
        return Ok(python);
    }
    if !python.exists() {
        // A virtualenv without its interpreter is a leftover of an interrupted creation.
        let _ = std::fs::remove_dir_all(&venv);
        run(Command::new("python3").arg("-m").arg("venv").arg(&venv))?;
    }
    eprintln!("installing stellar-sdk=={STELLAR_SDK_VERSION} into {}", venv.display());
    run(Command::new(&python)
        .args(["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet", "--timeout", "60"])
        .arg(format!("stellar-sdk=={STELLAR_SDK_VERSION}")))?;
    match installed_version(&python) {
        Some(v) if v == STELLAR_SDK_VERSION => Ok(python),
        other => Err(format!("after pip install, stellar_sdk version is {other:?}, expected {STELLAR_SDK_VERSION}")),
    }
}

/// A test that needs the SDK and cannot have it: a failure where `LAJAN_REQUIRE_STELLAR_SDK` is
/// set (CI), else a printed skip.
pub fn skip_without_sdk(test: &str, reason: &str) {
    if std::env::var_os("LAJAN_REQUIRE_STELLAR_SDK").is_some() {
        panic!("LAJAN_REQUIRE_STELLAR_SDK is set but the Python stellar-sdk is unavailable: {reason}");
    }
    eprintln!("SKIPPED {test}: {reason} (set LAJAN_REQUIRE_STELLAR_SDK=1 to make this a failure)");
}

/// Runs `script` with the SDK's python, `input` on its standard input (secrets stay out of
/// `ps`), and answers what it printed; panics with its error output when it fails.
pub fn run_script(python: &Path, script: &str, input: &str) -> String {
    let file = ScriptFile(std::env::temp_dir().join(format!("lajan-sdk-{}.py", uuid::Uuid::now_v7())));
    std::fs::write(&file.0, script).expect("write the script");
    let mut child = Command::new(python)
        .arg(&file.0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn python");
    // Small input, so writing it all before reading the output cannot deadlock on pipe buffers.
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write stdin");
    let out = child.wait_with_output().expect("wait for python");
    assert!(out.status.success(), "SDK script failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A script written for one run, removed after it.
struct ScriptFile(PathBuf);

impl Drop for ScriptFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn installed_version(python: &Path) -> Option<String> {
    let out = Command::new(python).args(["-c", "import stellar_sdk; print(stellar_sdk.__version__)"]).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn run(cmd: &mut Command) -> Result<std::process::Output, String> {
    let what = format!("{cmd:?}");
    let out = cmd.output().map_err(|e| format!("could not run {what}: {e}"))?;
    if out.status.success() {
        return Ok(out);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let tail: Vec<&str> = stderr.lines().rev().take(15).collect();
    Err(format!("{what} failed ({}):\n{}", out.status, tail.into_iter().rev().collect::<Vec<_>>().join("\n")))
}
