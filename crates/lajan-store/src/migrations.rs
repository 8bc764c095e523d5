//! The migrations compiled into the binary (listed by `build.rs`), as the source sqlx's migrator
//! runs: the same versions, descriptions and checksums its `migrate!` macro would embed, so a
//! database migrated by an earlier build sees no change.

use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use std::borrow::Cow;
use std::pin::Pin;

include!(concat!(env!("OUT_DIR"), "/migrations.rs"));

/// One backend's list: `SQLITE` or `POSTGRES`.
#[derive(Debug)]
struct Embedded(&'static [(i64, &'static str, &'static str)]);

impl MigrationSource<'static> for Embedded {
    // sqlx's `BoxFuture<'static, _>`, spelled out.
    fn resolve(self) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        let migrations = self
            .0
            .iter()
            .map(|&(version, description, sql)| {
                // sqlx's marker for a migration that must run outside a transaction.
                let no_tx = sql.starts_with("-- no-transaction");
                Migration::new(version, Cow::Borrowed(description), MigrationType::Simple, Cow::Borrowed(sql), no_tx)
            })
            .collect();
        Box::pin(std::future::ready(Ok(migrations)))
    }
}

pub(crate) async fn sqlite() -> Result<Migrator, sqlx::migrate::MigrateError> {
    Migrator::new(Embedded(SQLITE)).await
}

pub(crate) async fn postgres() -> Result<Migrator, sqlx::migrate::MigrateError> {
    Migrator::new(Embedded(POSTGRES)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What sqlx reads from the directory (as its `migrate!` macro did) is what is embedded:
    /// same versions, descriptions, checksums and transaction modes, so a database an earlier
    /// build migrated validates against this one.
    #[tokio::test]
    async fn the_embedded_migrations_are_those_sqlx_reads_from_the_directory() {
        for (backend, embedded) in [("sqlite", sqlite().await), ("postgres", postgres().await)] {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(backend);
            let from_disk = Migrator::new(dir).await.expect("sqlx reads the directory");
            let embedded = embedded.expect("the embedded list resolves");
            let shape = |m: &Migrator| {
                m.iter()
                    .map(|m| (m.version, m.description.to_string(), m.checksum.to_vec(), m.no_tx, m.migration_type))
                    .collect::<Vec<_>>()
            };
            assert!(embedded.iter().count() > 70, "{backend}: every migration is embedded");
            assert_eq!(shape(&embedded), shape(&from_disk), "{backend}");
        }
    }
}
