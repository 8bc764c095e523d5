//! The `lajan` binary: `serve`, `worker`, `migrate`, `orgs`, `keys`. Parsing and wiring only; the work
//! lives in the library crates.

mod admin;
mod cli;
mod commands;
mod config;

use clap::Parser;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = cli::Cli::parse();
    init_tracing();
    match commands::run(cli).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            if json_logs() {
                tracing::error!(error = format!("{e:#}"), "stopped on an error");
            } else {
                eprintln!("error: {e:#}");
            }
            std::process::ExitCode::FAILURE
        }
    }
}

/// Whether stderr carries JSON lines only (`LAJAN_LOG_FORMAT=json`).
fn json_logs() -> bool {
    std::env::var("LAJAN_LOG_FORMAT").is_ok_and(|f| f == "json")
}

/// Logs go to stderr (stdout carries only what commands print for scripts). Filter with
/// `LAJAN_LOG` (or `RUST_LOG`), e.g. `LAJAN_LOG=debug`; `LAJAN_LOG_FORMAT=json` for JSON lines.
fn init_tracing() {
    use tracing_subscriber::EnvFilter;
    let filter =
        std::env::var("LAJAN_LOG").or_else(|_| std::env::var("RUST_LOG")).unwrap_or_else(|_| "info,sqlx=warn".into());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_new(&filter).unwrap_or_else(|_| EnvFilter::new("info")))
        .with_writer(std::io::stderr)
        // Colours only for a person at a terminal: a file, a pipe or a log collector gets plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    if json_logs() {
        builder.json().init();
        // A panic (one a handler's guard turns into a 500, say) is a log line like any other.
        std::panic::set_hook(Box::new(|panic| tracing::error!(panic = %panic, "panicked")));
    } else {
        builder.init();
    }
}
