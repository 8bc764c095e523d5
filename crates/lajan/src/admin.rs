//! The operator's commands (`orgs`, `keys`, `users`) and the first run's organization: each
//! change goes through the same service method as the console's, so both check the same rules
//! and write the same rows and access trail; lists read the store, as the console's do.

use crate::cli::{Command, KeysCommand, OrgsCommand, UsersCommand};
use anyhow::{Context, bail};
use lajan_domain::org::Organization;
use lajan_domain::{Actor, Environment, Tenant, Timestamp};
use lajan_services::{ServiceError, Services};

/// Runs `command`, one of the operator's.
pub(crate) async fn run(services: &Services, command: &Command) -> anyhow::Result<()> {
    match command {
        Command::Orgs(cmd) => orgs(services, cmd).await,
        Command::Keys(cmd) => keys(services, cmd).await,
        Command::Users(cmd) => users(services, cmd).await,
        _ => bail!("not an operator's command"),
    }
}

/// On an empty database: organization "Default" and a sandbox key, printed once.
pub(crate) async fn first_run(services: &Services, base: &str) -> anyhow::Result<()> {
    let made = services.create_first_organization().await.context("creating the default organization")?;
    if let Some((org, secret)) = made {
        let notice = format!(
            "\nCreated organization \"Default\" ({}) and a sandbox API key. It is shown only this once:\n\n    {secret}\n\nTry: curl -H \"Authorization: Bearer {secret}\" {base}/v1/clients\n",
            org.id
        );
        // With JSON logs, stderr is the log stream: a key never goes there, so it goes to stdout.
        if crate::json_logs() {
            println!("{notice}");
        } else {
            eprintln!("{notice}");
        }
    }
    Ok(())
}

async fn orgs(services: &Services, cmd: &OrgsCommand) -> anyhow::Result<()> {
    match cmd {
        OrgsCommand::Create { name, tier } => {
            let org = services.create_organization(name, tier).await.map_err(refused)?;
            eprintln!("created organization {:?} ({} tier)", org.name, org.tier);
            println!("{}", org.id);
        }
        OrgsCommand::List => {
            for org in services.store.list_organizations().await? {
                println!("{}\t{}\t{}\t{}", org.id, org.tier, org.created_at, org.name);
            }
        }
        OrgsCommand::Rename { org, name } => {
            let org = resolve_org(services, org.as_deref()).await?;
            let renamed = services.rename_organization(&org.id, name, &operator()).await.map_err(refused)?;
            eprintln!("renamed organization {} from {:?} to {:?}", org.id, org.name, renamed.name);
        }
    }
    Ok(())
}

async fn keys(services: &Services, cmd: &KeysCommand) -> anyhow::Result<()> {
    match cmd {
        KeysCommand::Create { env, org, scopes, name } => {
            let env: Environment = env.parse().map_err(anyhow::Error::msg)?;
            let org = resolve_org(services, org.as_deref()).await?;
            let scopes = if scopes.is_empty() { vec!["*".to_owned()] } else { scopes.clone() };
            let tenant = Tenant { org_id: org.id.clone(), env, actor: operator() };
            let (secret, key) = services.create_key(&tenant, name, &scopes).await.map_err(refused)?;
            let scopes: Vec<String> = key.scopes.iter().map(ToString::to_string).collect();
            eprintln!(
                "created {} key {} for organization {} ({}) with scopes {}; the secret is shown only once",
                env,
                key.id,
                org.id,
                org.name,
                scopes.join(" ")
            );
            println!("{secret}");
        }
        KeysCommand::List { org } => {
            println!("ID\tORG\tENV\tHINT\tSCOPES\tCREATED\tLAST_USED\tREVOKED\tNAME");
            for k in services.store.list_api_keys(org.as_deref()).await? {
                let scopes: Vec<String> = k.scopes.iter().map(ToString::to_string).collect();
                let show = |t: Option<Timestamp>| t.map_or_else(|| "-".to_owned(), |t| t.to_string());
                println!(
                    "{}\t{}\t{}\t{}...\t{}\t{}\t{}\t{}\t{}",
                    k.id,
                    k.org_id,
                    k.env,
                    k.hint,
                    scopes.join(","),
                    k.created_at,
                    show(k.last_used_at),
                    show(k.revoked_at),
                    k.name
                );
            }
        }
        KeysCommand::Revoke { key_id } => match services.revoke_any_key(key_id, &operator()).await {
            Ok(k) => eprintln!(
                "revoked {} ({}...); running servers reject it within LAJAN_AUTH_CACHE_MS (1 s by default)",
                k.id, k.hint
            ),
            Err(ServiceError::NotFound(_)) => bail!("no key with id {key_id}"),
            Err(e) => return Err(refused(e)),
        },
    }
    Ok(())
}

async fn users(services: &Services, cmd: &UsersCommand) -> anyhow::Result<()> {
    match cmd {
        UsersCommand::Create { email, role, org, name, password_stdin } => {
            let org = resolve_org(services, org.as_deref()).await?;
            let typed = if *password_stdin {
                let mut text = String::new();
                std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).context("reading the password")?;
                let password = text.strip_suffix('\n').map(|p| p.strip_suffix('\r').unwrap_or(p)).unwrap_or(&text);
                Some(password.to_owned())
            } else {
                None
            };
            // A generated password is passed on by someone else: the user sets their own.
            let (user, generated) = services
                .create_user(&operator(), &org.id, email, role, name.as_deref(), typed.as_deref())
                .await
                .map_err(refused)?;
            eprintln!("created {} {} ({}) for organization {} ({})", user.role, user.email, user.id, org.id, org.name);
            if let Some(password) = generated {
                eprintln!("their password is shown only once");
                println!("{password}");
            }
        }
        UsersCommand::List { org } => {
            println!("ID\tORG\tEMAIL\tROLE\tCREATED\tDISABLED\tNAME");
            for u in services.store.list_users(org.as_deref()).await? {
                let disabled = u.disabled_at.map_or_else(|| "-".to_owned(), |t| t.to_string());
                let name = u.name.as_deref().unwrap_or("");
                println!("{}\t{}\t{}\t{}\t{}\t{disabled}\t{name}", u.id, u.org_id, u.email, u.role, u.created_at);
            }
        }
        UsersCommand::Disable { email } => match services.disable_user_by_email(email, &operator()).await {
            Ok(user) => eprintln!("disabled {} ({})", user.email, user.id),
            Err(ServiceError::NotFound(_)) => bail!("no user with email {}", email.trim().to_lowercase()),
            Err(e) => return Err(refused(e)),
        },
    }
    Ok(())
}

/// A service's refusal as the command line says it: each bad field as its flag (`--email must
/// be an email address`).
fn refused(e: ServiceError) -> anyhow::Error {
    match e {
        ServiceError::Invalid(refusal) if !refusal.details.is_empty() => {
            let fields: Vec<String> = refusal.details.iter().map(|d| format!("--{} {}", d.field, d.message)).collect();
            anyhow::anyhow!(fields.join("; "))
        }
        other => other.into(),
    }
}

/// Whoever runs a command: the access trail records them as the command line.
fn operator() -> Actor {
    Actor::System(Actor::CLI.to_owned())
}

async fn resolve_org(services: &Services, id: Option<&str>) -> anyhow::Result<Organization> {
    if let Some(id) = id {
        return services.store.get_organization(id).await?.with_context(|| format!("no organization with id {id}"));
    }
    let mut all = services.store.list_organizations().await?;
    match all.len() {
        1 => Ok(all.remove(0)),
        0 => bail!("there is no organization yet: run `lajan orgs create --name NAME` (or `lajan serve` once)"),
        n => bail!("there are {n} organizations: choose one with --org (see `lajan orgs list`)"),
    }
}
