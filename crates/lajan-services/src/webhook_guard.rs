//! The guard that keeps webhooks out of the network Lajan runs in: an endpoint's host must
//! resolve to public addresses only, and a live endpoint's URL must be `https`. Sandbox endpoints
//! may reach private and local addresses only where the operator allows it
//! (`LAJAN_SANDBOX_WEBHOOKS_PRIVATE=allow`, for a developer's own machine). Checked when the URL
//! is set, and again by the dispatcher on every connection, through the same [`HostResolver`], so
//! a name that later resolves to a private address is refused before anything is dialled. A
//! wallet's `stellar.toml` (SEP-10 `client_domain`) is read through the same guard.

use async_trait::async_trait;
use lajan_domain::Invalid;
use lajan_domain::network::{is_localhost, non_public};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// How long a host name may take to resolve.
const RESOLVE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Turns a host name into the addresses it would be dialled at.
#[async_trait]
pub trait HostResolver: Send + Sync + std::fmt::Debug + 'static {
    async fn resolve(&self, host: &str) -> std::io::Result<Vec<IpAddr>>;

    /// The TXT records of `name` (each record's strings joined); none when it has none.
    async fn txt(&self, name: &str) -> std::io::Result<Vec<String>>;
}

/// The operating system's resolver; TXT records through hickory, with the system's name servers
/// (`/etc/resolv.conf`).
#[derive(Debug, Default)]
pub struct SystemResolver {
    dns: tokio::sync::OnceCell<hickory_resolver::TokioResolver>,
}

#[async_trait]
impl HostResolver for SystemResolver {
    async fn resolve(&self, host: &str) -> std::io::Result<Vec<IpAddr>> {
        Ok(tokio::net::lookup_host((host, 0)).await?.map(|addr| addr.ip()).collect())
    }

    async fn txt(&self, name: &str) -> std::io::Result<Vec<String>> {
        use hickory_resolver::net::runtime::TokioRuntimeProvider;
        use hickory_resolver::proto::rr::RData;
        let dns = self
            .dns
            .get_or_try_init(|| async {
                hickory_resolver::TokioResolver::builder(TokioRuntimeProvider::default())
                    .map_err(std::io::Error::other)?
                    .build()
                    .map_err(std::io::Error::other)
            })
            .await?;
        let found = match tokio::time::timeout(RESOLVE_TIMEOUT, dns.txt_lookup(name)).await {
            Err(_) => return Err(std::io::Error::other(format!("{name} did not answer within 5 s"))),
            Ok(Err(e)) if e.is_no_records_found() => return Ok(Vec::new()),
            Ok(Err(e)) => return Err(std::io::Error::other(e)),
            Ok(Ok(found)) => found,
        };
        let joined = |txt: &hickory_resolver::proto::rr::rdata::TXT| {
            txt.txt_data.iter().map(|part| String::from_utf8_lossy(part)).collect::<String>()
        };
        Ok(found
            .answers()
            .iter()
            .filter_map(|record| match &record.data {
                RData::TXT(txt) => Some(joined(txt)),
                _ => None,
            })
            .collect())
    }
}

/// Fixed answers a test sets and changes (a DNS name that moves to a private address).
#[derive(Debug, Default)]
pub struct FixedResolver {
    answers: Mutex<HashMap<String, Vec<IpAddr>>>,
    texts: Mutex<HashMap<String, Vec<String>>>,
}

impl FixedResolver {
    /// From now on, `host` resolves to `ips` (none: it does not resolve).
    pub fn set(&self, host: &str, ips: &[&str]) {
        let ips = ips.iter().filter_map(|ip| ip.parse().ok()).collect();
        self.answers.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(host.to_ascii_lowercase(), ips);
    }

    /// From now on, `name`'s TXT records include `record` (beside those it held: tests running
    /// at once may publish under one name).
    pub fn add_txt(&self, name: &str, record: &str) {
        let mut texts = self.texts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        texts.entry(name.to_ascii_lowercase()).or_default().push(record.to_owned());
    }
}

#[async_trait]
impl HostResolver for FixedResolver {
    async fn resolve(&self, host: &str) -> std::io::Result<Vec<IpAddr>> {
        let answers = self.answers.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        Ok(answers.get(&host.to_ascii_lowercase()).cloned().unwrap_or_default())
    }

    async fn txt(&self, name: &str) -> std::io::Result<Vec<String>> {
        let texts = self.texts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        Ok(texts.get(&name.to_ascii_lowercase()).cloned().unwrap_or_default())
    }
}

/// The addresses a live webhook to `host` may dial, or why it may dial none: every address the
/// name resolves to must be public (one private answer is enough for a resolver to send us there).
pub async fn public_addresses(resolver: &dyn HostResolver, host: &str) -> Result<Vec<IpAddr>, String> {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if is_localhost(host) {
        return Err(format!("{host} names this machine"));
    }
    if let Ok(ip) = host.parse::<IpAddr>() {
        return match non_public(ip) {
            Some(why) => Err(format!("{ip} is {why}")),
            None => Ok(vec![ip]),
        };
    }
    // A resolver that never answers must not hold a request (or a delivery slot) forever.
    let ips = tokio::time::timeout(RESOLVE_TIMEOUT, resolver.resolve(host))
        .await
        .map_err(|_| format!("{host} could not be resolved within {} s", RESOLVE_TIMEOUT.as_secs()))?
        .map_err(|e| format!("{host} could not be resolved: {e}"))?;
    if ips.is_empty() {
        return Err(format!("{host} could not be resolved"));
    }
    // Which address, or even which kind, an internal name has is the network's to keep.
    if ips.iter().any(|ip| non_public(*ip).is_some()) {
        return Err(format!("{host} resolves to an address that is not public"));
    }
    Ok(ips)
}

/// What a sandbox refusal adds: how an operator lets the sandbox reach local receivers.
pub const SANDBOX_PRIVATE_HINT: &str = "sandbox endpoints reach private and local addresses only where the server sets LAJAN_SANDBOX_WEBHOOKS_PRIVATE=allow";

/// Why an endpoint may not have `url` (400 `invalid_url`), if it may not: its host must resolve
/// to public addresses only, and a live one must be `https`.
pub async fn check_endpoint_url(resolver: &dyn HostResolver, url: &str, live: bool) -> Result<(), Invalid> {
    let refuse = |why: String| Err(Invalid::new("invalid_url", format!("url {why}")));
    let Ok(parsed) = url::Url::parse(url) else { return refuse("must be an absolute URL".into()) };
    if live && parsed.scheme() != "https" {
        return refuse("must use https for a live endpoint".into());
    }
    let Some(host) = parsed.host_str() else { return refuse("must name a host".into()) };
    match public_addresses(resolver, host).await {
        Ok(_) => Ok(()),
        Err(why) if live => refuse(format!("must reach a public address: {why}")),
        Err(why) => refuse(format!("must reach a public address: {why} ({SANDBOX_PRIVATE_HINT})")),
    }
}

/// A guarded HTTP client's resolver: answers only public addresses, or refuses the connection
/// (a name that resolves to a private address, even once, is never dialled). A host written as
/// an address never reaches a resolver: check it with [`public_addresses`] before dialling.
pub struct GuardedDns(pub Arc<dyn HostResolver>);

impl reqwest::dns::Resolve for GuardedDns {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let resolver = self.0.clone();
        Box::pin(async move {
            let ips = public_addresses(&*resolver, name.as_str()).await.map_err(|why| format!("refused: {why}"))?;
            let addrs: reqwest::dns::Addrs = Box::new(ips.into_iter().map(|ip| std::net::SocketAddr::new(ip, 0)));
            Ok(addrs)
        })
    }
}
