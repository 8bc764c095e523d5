//! The SQLite engine's group commit: units queued behind each other share one commit, a unit
//! that fails is undone alone, and a lone unit commits at once.

use super::engine::{GroupCommit, WriteEngine};
use super::statements::{query, query_scalar};
use crate::StoreError;
use std::sync::Arc;
use std::time::Duration;

struct Db {
    _dir: tempfile::TempDir,
    engine: Arc<WriteEngine>,
}

fn engine(limits: GroupCommit) -> Db {
    let dir = tempfile::tempdir().expect("temporary directory");
    let engine = WriteEngine::open(&dir.path().join("engine.db"), limits).expect("open the writer");
    Db { _dir: dir, engine }
}

async fn create_table(engine: &Arc<WriteEngine>) {
    let mut tx = engine.begin().await.expect("begin");
    query("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL UNIQUE)").execute(&mut *tx).await.unwrap();
    tx.commit().await.expect("commit the table");
}

async fn note(engine: Arc<WriteEngine>, body: String) -> Result<(), StoreError> {
    let mut tx = engine.begin().await?;
    query("INSERT INTO notes (body) VALUES ($1)").bind(&body).execute(&mut *tx).await?;
    tx.commit().await
}

async fn notes(engine: &Arc<WriteEngine>) -> Vec<String> {
    let mut tx = engine.begin().await.expect("begin");
    let rows = query("SELECT body FROM notes ORDER BY body").fetch_all(&mut *tx).await.unwrap();
    rows.iter().map(|r| r.try_get::<String, _>("body").unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn units_queued_behind_each_other_share_a_commit() {
    let db = engine(GroupCommit::default());
    create_table(&db.engine).await;
    let before = db.engine.counts();
    // The first unit holds the writer while 63 others queue behind it.
    let first = db.engine.begin().await.unwrap();
    let units: Vec<_> = (0..63).map(|i| tokio::spawn(note(db.engine.clone(), format!("n{i:02}")))).collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    first.commit().await.unwrap();
    for unit in units {
        unit.await.unwrap().expect("every unit commits");
    }
    let (commits, units) = db.engine.counts();
    assert_eq!(units - before.1, 64);
    assert!(commits - before.0 < 8, "64 queued units took {} commits", commits - before.0);
    assert_eq!(notes(&db.engine).await.len(), 63);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_unit_is_undone_alone_and_gets_its_own_error() {
    let db = engine(GroupCommit::default());
    create_table(&db.engine).await;
    note(db.engine.clone(), "taken".into()).await.unwrap();
    let first = db.engine.begin().await.unwrap();
    let good = tokio::spawn(note(db.engine.clone(), "good".into()));
    // Inserts a row, then breaks the unique rule: the unit's own row goes with it.
    let bad = tokio::spawn({
        let engine = db.engine.clone();
        async move {
            let mut tx = engine.begin().await?;
            query("INSERT INTO notes (body) VALUES ('half')").execute(&mut *tx).await?;
            query("INSERT INTO notes (body) VALUES ('taken')").execute(&mut *tx).await?;
            tx.commit().await
        }
    });
    let after = tokio::spawn(note(db.engine.clone(), "after".into()));
    tokio::time::sleep(Duration::from_millis(100)).await;
    first.commit().await.unwrap();
    assert!(matches!(bad.await.unwrap(), Err(StoreError::Conflict(_))));
    good.await.unwrap().unwrap();
    after.await.unwrap().unwrap();
    assert_eq!(notes(&db.engine).await, ["after", "good", "taken"]);
}

#[tokio::test]
async fn a_lone_unit_commits_before_it_answers() {
    let db = engine(GroupCommit::default());
    create_table(&db.engine).await;
    let (commits, _) = db.engine.counts();
    note(db.engine.clone(), "alone".into()).await.unwrap();
    assert_eq!(db.engine.counts().0, commits + 1, "the unit's own commit, made before it returned");
    // A unit dropped without committing leaves nothing, and the next one is not held up.
    let mut tx = db.engine.begin().await.unwrap();
    query("INSERT INTO notes (body) VALUES ('dropped')").execute(&mut *tx).await.unwrap();
    drop(tx);
    note(db.engine.clone(), "next".into()).await.unwrap();
    assert_eq!(notes(&db.engine).await, ["alone", "next"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_unit_per_commit_when_the_bound_is_one() {
    let db = engine(GroupCommit { max_units: 1, ..GroupCommit::default() });
    create_table(&db.engine).await;
    let before = db.engine.counts();
    let first = db.engine.begin().await.unwrap();
    let units: Vec<_> = (0..20).map(|i| tokio::spawn(note(db.engine.clone(), format!("n{i:02}")))).collect();
    tokio::time::sleep(Duration::from_millis(100)).await;
    first.commit().await.unwrap();
    for unit in units {
        unit.await.unwrap().unwrap();
    }
    let (commits, units) = db.engine.counts();
    assert_eq!((commits - before.0, units - before.1), (21, 21));
}

/// The settings the engine's speed rests on (BENCHMARKS.md): SQLite built without its shared
/// page cache and memory statistics (`.cargo/config.toml`), and savepoint journals in memory.
#[tokio::test]
async fn sqlite_is_built_and_opened_for_concurrent_units() {
    let db = engine(GroupCommit::default());
    let mut tx = db.engine.begin().await.expect("begin");
    let options: Vec<String> =
        query_scalar("PRAGMA compile_options").fetch_all(&mut *tx).await.expect("compile options");
    assert!(options.iter().any(|o| o == "DEFAULT_MEMSTATUS=0"), "{options:?}");
    assert!(!options.iter().any(|o| o == "ENABLE_MEMORY_MANAGEMENT"), "{options:?}");
    let temp_store: i64 = query_scalar("PRAGMA temp_store").fetch_one(&mut *tx).await.unwrap();
    assert_eq!(temp_store, 2, "savepoint journals are kept in memory (temp_store = MEMORY)");
}
