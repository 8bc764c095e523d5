//! What each subcommand does.

use crate::admin;
use crate::cli::{Cli, Command, ConfigCommand};
use crate::config::{FileConfig, ServeConfig, database_url};
use anyhow::{Context, bail};
use lajan_api::Application;
use lajan_ledger::live::NetworkCheck;
use lajan_services::{ServiceConfig, Services};
use lajan_store::{GroupCommit, Store, redact_url};
use lajan_worker::Workers;
use secrecy::{ExposeSecret, SecretString};
use std::future::Future;
use std::sync::Arc;

pub(crate) async fn run(cli: Cli) -> anyhow::Result<()> {
    let file = FileConfig::load(&cli)?;
    match &cli.command {
        Command::Serve(args) => serve(ServeConfig::resolve(&cli, args, file)?, !args.no_workers).await,
        Command::Worker(args) if args.no_workers => bail!("--no-workers is for serve; a worker runs only workers"),
        Command::Worker(args) => work(ServeConfig::resolve(&cli, args, file)?).await,
        Command::Migrate => {
            let store = open(&database_url(&cli, &file)).await?;
            store.close().await;
            eprintln!("migrations applied");
            Ok(())
        }
        Command::Backup { to } => {
            // The database as it is: a backup neither migrates it nor changes it.
            let url = database_url(&cli, &file);
            let url = url.expose_secret();
            require_existing(url)?;
            let store =
                lajan_store::open(url).await.with_context(|| format!("opening database {}", redact_url(url)))?;
            let copied = store.backup_to(to).await.with_context(|| format!("backing up into {}", to.display()));
            store.close().await;
            copied?;
            eprintln!("backed up into {}", to.display());
            Ok(())
        }
        Command::Config(ConfigCommand::Check(args)) => {
            let config = ServeConfig::resolve(&cli, args, file).context("the configuration is invalid")?;
            print!("{}", describe(&config));
            eprintln!("the configuration is valid");
            Ok(())
        }
        Command::Orgs(_) | Command::Keys(_) | Command::Users(_) => {
            let store = open_existing(&database_url(&cli, &file)).await?;
            // The console's service methods, so both write the same rows and audit trail.
            let services = Services::new(store.clone(), ServiceConfig::default())?;
            let result = admin::run(&services, &cli.command).await;
            store.close().await;
            result
        }
    }
}

/// The effective configuration as `lajan config check` prints it. Every secret is a
/// `SecretString`, which prints as `[REDACTED]`; the database URL shows without its password.
fn describe(config: &ServeConfig) -> String {
    format!(
        "listen = {}\nmetrics_listen = {}\nshutdown_grace = {:?}\ndatabase = {}\ngroup_commit = {:?}\n\n[http]\n{:#?}\n\n[services]\n{:#?}\n\n[workers]\n{:#?}\n",
        config.listen,
        config.metrics_listen.map_or_else(|| "off".to_owned(), |a| a.to_string()),
        config.shutdown_grace,
        redact_url(config.database_url.expose_secret()),
        config.group_commit,
        config.app,
        config.services,
        config.workers
    )
}

/// Opens the database and applies migrations, so every command works on a fresh file.
async fn open(url: &SecretString) -> anyhow::Result<Arc<dyn Store>> {
    open_with(url, GroupCommit::default()).await
}

/// [`open`] for commands that manage what is in a database: a SQLite file that does not exist is
/// a mistyped path, not a database to create (only `serve`, `worker` and `migrate` create one).
async fn open_existing(url: &SecretString) -> anyhow::Result<Arc<dyn Store>> {
    require_existing(url.expose_secret())?;
    open(url).await
}

fn require_existing(url: &str) -> anyhow::Result<()> {
    match lajan_store::sqlite_file(url) {
        Some(path) if !path.exists() => bail!(
            "there is no database at {}: check LAJAN_DATABASE_URL (or --database-url), or create it with `lajan migrate`",
            path.display()
        ),
        _ => Ok(()),
    }
}

async fn open_with(url: &SecretString, group_commit: GroupCommit) -> anyhow::Result<Arc<dyn Store>> {
    let url = url.expose_secret();
    let store = lajan_store::open_with(url, group_commit)
        .await
        .with_context(|| format!("opening database {}", redact_url(url)))?;
    store.migrate().await.context("applying migrations")?;
    Ok(store)
}

/// The use cases and, when asked for, the workers over them. The workers are built either way,
/// so a bad SMTP or SMS setting stops every process at start, not only the ones that send.
fn wire(
    store: Arc<dyn Store>,
    config: &ServeConfig,
    with_workers: bool,
) -> anyhow::Result<(Arc<Services>, Option<Arc<Workers>>)> {
    let services = Arc::new(Services::new(store, config.services.clone())?);
    let workers = Arc::new(Workers::new(services.clone(), config.workers.clone())?);
    Ok((services, with_workers.then_some(workers)))
}

async fn serve(config: ServeConfig, with_workers: bool) -> anyhow::Result<()> {
    let store = open_with(&config.database_url, config.group_commit).await?;
    let (services, workers) = wire(store.clone(), &config, with_workers)?;
    confirm_live_network(&services).await?;
    let listener =
        tokio::net::TcpListener::bind(config.listen).await.with_context(|| format!("binding {}", config.listen))?;
    let metrics = MetricsServer::start(config.metrics_listen, &services).await?;
    let app = Application::build(config.app, services.clone(), listener).await?;
    // Only once everything else is ready: the first-run key is printed a single time.
    admin::first_run(&services, &format!("http://{}", config.listen)).await?;
    let stop_asked = shutdown_signal();
    tracing::info!(addr = %app.local_addr()?, database = %redact_url(config.database_url.expose_secret()), workers = with_workers, "lajan listening");
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let background = workers.map(|w| w.spawn(stopped.clone())).unwrap_or_default();
    let mut serving = tokio::spawn(app.run(stop_flipped(stopped)));
    let failed_early = tokio::select! {
        served = &mut serving => Some(served),
        () = stop_asked => None,
    };
    let served = async move {
        match failed_early {
            Some(served) => served,
            None => serving.await,
        }
    };
    wind_down(stop, config.shutdown_grace, served, background, metrics, store.as_ref()).await
}

/// A stop, in `serve` and `worker` alike: flips `stop`, which closes the listener (when `served`
/// is a server's) and stops the workers together; waits within `grace` for the server to answer
/// what it accepted and for each worker's step; then stops the metrics listener and closes the
/// database.
async fn wind_down(
    stop: tokio::sync::watch::Sender<bool>,
    grace: std::time::Duration,
    served: impl Future<Output = Result<std::io::Result<()>, tokio::task::JoinError>>,
    background: Vec<tokio::task::JoinHandle<()>>,
    metrics: Option<MetricsServer>,
    store: &dyn Store,
) -> anyhow::Result<()> {
    let _ = stop.send(true);
    let stopped = within_grace(grace, async move {
        let served = served.await;
        for task in background {
            let _ = task.await;
        }
        served
    })
    .await;
    if let Some(metrics) = metrics {
        metrics.stop().await;
    }
    match stopped? {
        Ok(served) => served.context("serving")?,
        Err(e) => anyhow::bail!("the server task failed: {e}"),
    }
    store.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// Resolves once `stop` flips.
async fn stop_flipped(mut stop: tokio::sync::watch::Receiver<bool>) {
    let _ = stop.wait_for(|stopped| *stopped).await;
}

/// Waits for `finishing` at most `grace` after the stop signal; past it the process exits anyway
/// (what still runs is cut: a request's transaction rolls back, a step resumes on the next start).
async fn within_grace<T>(grace: std::time::Duration, finishing: impl Future<Output = T>) -> anyhow::Result<T> {
    tokio::time::timeout(grace, finishing).await.map_err(|_| {
        anyhow::anyhow!(
            "requests or worker steps still ran {} s after the stop signal (LAJAN_SHUTDOWN_GRACE_SECS): they were cut",
            grace.as_secs()
        )
    })
}

async fn work(config: ServeConfig) -> anyhow::Result<()> {
    let store = open_with(&config.database_url, config.group_commit).await?;
    let (services, workers) = wire(store.clone(), &config, true)?;
    confirm_live_network(&services).await?;
    let metrics = MetricsServer::start(config.metrics_listen, &services).await?;
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let background = workers.map(|w| w.spawn(stopped)).unwrap_or_default();
    let stop_asked = shutdown_signal();
    tracing::info!(database = %redact_url(config.database_url.expose_secret()), "lajan workers running");
    stop_asked.await;
    wind_down(stop, config.shutdown_grace, std::future::ready(Ok(Ok(()))), background, metrics, store.as_ref()).await
}

/// The metrics listener running beside the process's work.
struct MetricsServer {
    stop: tokio::sync::oneshot::Sender<()>,
    served: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl MetricsServer {
    /// Binds `listen` (a taken address stops the process, naming the setting) and serves
    /// `GET /metrics` in the background; nothing when metrics are off.
    async fn start(listen: Option<std::net::SocketAddr>, services: &Arc<Services>) -> anyhow::Result<Option<Self>> {
        let Some(addr) = listen else { return Ok(None) };
        let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| {
            format!("binding the metrics listener {addr} (set LAJAN_METRICS_LISTEN to a free address, or off)")
        })?;
        tracing::info!(addr = %listener.local_addr()?, "metrics at /metrics");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = tokio::spawn(lajan_api::metrics::serve(listener, services.clone(), async move {
            let _ = stopped.await;
        }));
        Ok(Some(MetricsServer { stop, served }))
    }

    /// Once the process's work is done: the last scrape sees it finished.
    async fn stop(self) {
        let _ = self.stop.send(());
        if let Ok(Err(e)) = self.served.await {
            tracing::warn!(error = %e, "the metrics listener failed");
        }
    }
}

/// Refuses to start when Horizon serves another network than the configured passphrase names.
/// A Horizon that cannot be asked does not stop the process (the API and the sandbox do not need
/// it): live payouts then wait, building nothing, until Horizon confirms its network.
async fn confirm_live_network(services: &Services) -> anyhow::Result<()> {
    let Some(live) = services.live_ledger() else { return Ok(()) };
    match live.check_network().await {
        Ok(()) => Ok(()),
        Err(e @ NetworkCheck::Mismatch { .. }) => Err(anyhow::anyhow!(e)),
        Err(e @ NetworkCheck::Unreachable { .. }) => {
            tracing::warn!(error = %e, "live payouts wait until Horizon confirms the configured network");
            Ok(())
        }
    }
}

/// Ctrl-C or SIGTERM, whichever comes first. The handlers are installed when this is called, not
/// when it is first awaited: a stop sent as soon as the start-up line is out (a test, an
/// orchestrator) is a graceful stop, never the default action that kills the process.
fn shutdown_signal() -> impl Future<Output = ()> {
    #[cfg(unix)]
    let (mut terminate, mut interrupt) = {
        use tokio::signal::unix::{SignalKind, signal};
        (signal(SignalKind::terminate()).ok(), signal(SignalKind::interrupt()).ok())
    };
    async move {
        #[cfg(unix)]
        {
            async fn received(signal: Option<&mut tokio::signal::unix::Signal>) {
                match signal {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            }
            tokio::select! {
                () = received(terminate.as_mut()) => {},
                () = received(interrupt.as_mut()) => {},
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
        tracing::info!("shutting down: finishing work in flight");
    }
}
