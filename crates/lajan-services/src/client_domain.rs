//! A wallet's own domain (SEP-10 `client_domain`): the `SIGNING_KEY` its `stellar.toml` names,
//! read over the network through the webhook guard, so that a wallet (or anyone who asks for a
//! challenge) cannot point Lajan at the network it runs in, and with bounds on time, size and
//! lookups in flight, since anyone may ask.

use crate::stellar_service::refuse;
use crate::webhook_guard::{GuardedDns, HostResolver, public_addresses};
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::client::WalletAddress;
use lajan_domain::network::parse_domain;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How long reading a wallet's `stellar.toml` may take, body included.
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);
/// SEP-1 caps a `stellar.toml` at 100 KB.
const MAX_TOML_BYTES: usize = 100 * 1024;
/// Reads in flight at once: each one is an anonymous request's outbound call.
const READS_IN_FLIGHT: usize = 16;
/// A `manage_data` value holds 64 bytes: the longest domain a challenge can name.
const MAX_DOMAIN_BYTES: usize = 64;

/// The HTTP clients wallet domains are read with.
pub(crate) struct WalletDomains {
    /// Resolves every name through the guard: public addresses only.
    guarded: reqwest::Client,
    /// Dials anything: for a sandbox whose operator lets it reach private addresses (a
    /// developer's wallet on their own machine), as sandbox webhooks may.
    unguarded: reqwest::Client,
    in_flight: Semaphore,
}

impl WalletDomains {
    pub(crate) fn new(resolver: Arc<dyn HostResolver>) -> Result<Self, reqwest::Error> {
        let builder = || {
            reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .timeout(FETCH_TIMEOUT)
                .user_agent(concat!("Lajan-SEP10/", env!("CARGO_PKG_VERSION")))
        };
        Ok(WalletDomains {
            guarded: builder().dns_resolver(Arc::new(GuardedDns(resolver))).build()?,
            unguarded: builder().build()?,
            in_flight: Semaphore::new(READS_IN_FLIGHT),
        })
    }
}

impl Services {
    /// The `SIGNING_KEY` named by `https://{domain}/.well-known/stellar.toml`, the wallet's
    /// domain a challenge is asked for. Refused (`Invalid`, in words the wallet's developer can
    /// act on) when the domain is malformed, reaches no public address, or its file cannot be
    /// read or names no valid key. Where the sandbox may reach private addresses, a domain on a
    /// private address is read over plain `http`, as a wallet under development serves it.
    pub(crate) async fn client_domain_key(&self, domain: &str) -> ServiceResult<String> {
        let host = domain_host(domain)?;
        // Held from the name's resolution to the file's last byte: both are outbound work.
        let _slot = self.wallet_domains.in_flight.try_acquire().map_err(|_| {
            ServiceError::Unavailable("Too many wallet domains are being read right now; try again in a moment".into())
        })?;
        let (env, _) = self.wallet_network();
        let private_allowed = !env.is_live() && self.config.sandbox_webhooks_private;
        let (client, scheme) = match public_addresses(&*self.config.resolver, &host).await {
            Ok(_) => (&self.wallet_domains.guarded, "https"),
            Err(_) if private_allowed => (&self.wallet_domains.unguarded, "http"),
            // One answer whatever the reason (no such name, a private address, this machine):
            // anyone may ask, and which internal names exist is the network's to keep.
            Err(_) => {
                return Err(refuse(format!(
                    "client_domain {domain} must reach a public address: it does not resolve to public addresses only"
                )));
            }
        };
        let url = format!("{scheme}://{domain}/.well-known/stellar.toml");
        let unreadable = |why: String| refuse(format!("client_domain {domain}: {url} could not be read: {why}"));
        let mut response = client.get(&url).send().await.map_err(|e| unreadable(transport_reason(&e)))?;
        if !response.status().is_success() {
            let status = response.status();
            return Err(unreadable(format!("it answered HTTP {status} (redirects are not followed)")));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| unreadable(transport_reason(&e)))? {
            body.extend_from_slice(&chunk);
            if body.len() > MAX_TOML_BYTES {
                return Err(unreadable("it is larger than SEP-1's 100 KB".into()));
            }
        }
        let text = String::from_utf8(body).map_err(|_| unreadable("it is not UTF-8 text".into()))?;
        let toml: toml::Table = toml::from_str(&text).map_err(|_| unreadable("it is not TOML".into()))?;
        let key = toml
            .get("SIGNING_KEY")
            .and_then(toml::Value::as_str)
            .ok_or_else(|| refuse(format!("client_domain {domain}: its stellar.toml names no SIGNING_KEY")))?;
        let key = WalletAddress::parse(key).map_err(|e| {
            refuse(format!("client_domain {domain}: its stellar.toml's SIGNING_KEY {e} (a G... account)"))
        })?;
        Ok(key.as_str().to_owned())
    }
}

/// The host of a `client_domain`, which must be a bare domain (with a port at most) that fits a
/// challenge's `manage_data` value.
fn domain_host(domain: &str) -> ServiceResult<String> {
    let domain =
        parse_domain(domain, MAX_DOMAIN_BYTES).map_err(|rule| refuse(format!("client_domain {domain:?} {rule}")))?;
    // A parsed domain is a URL authority: its host is what precedes any port.
    let host = match domain.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => domain.as_str(),
    };
    Ok(host.trim_start_matches('[').trim_end_matches(']').to_owned())
}

/// Why a read failed, without reqwest's text (which repeats the URL the refusal already names).
fn transport_reason(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        format!("no answer within {} s", FETCH_TIMEOUT.as_secs())
    } else if e.is_connect() {
        "the connection was refused or blocked".to_owned()
    } else {
        "the connection failed".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_domain_is_a_bare_domain() {
        assert_eq!(domain_host("wallet.example").unwrap(), "wallet.example");
        assert_eq!(domain_host("localhost:8000").unwrap(), "localhost");
        for bad in
            ["", "Wallet.example", "wallet.example/x", "u@wallet.example", "wallet.example?x", "a b", &"w".repeat(65)]
        {
            assert!(domain_host(bad).is_err(), "{bad:?}");
        }
    }
}
