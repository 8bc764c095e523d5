//! Embeds the migrations: lists each backend's `migrations/<backend>/NNNN_description.sql` as
//! `(version, description, include_str!(path))`, the list sqlx's `migrate!` macro would make,
//! without compiling sqlx's macros (and a second SQLite and PostgreSQL driver for the host) just
//! for it.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let mut code = String::new();
    for backend in ["sqlite", "postgres"] {
        let dir = Path::new(&root).join("migrations").join(backend);
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut files: Vec<(i64, String, String)> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "sql"))
            .map(|path| {
                let name = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 file name").to_owned();
                let (version, description) =
                    name.split_once('_').unwrap_or_else(|| panic!("{name}: expected NNNN_description.sql"));
                let version = version.parse().unwrap_or_else(|_| panic!("{name}: the version is not a number"));
                // sqlx records the description with spaces for underscores.
                (version, description.replace('_', " "), path.display().to_string())
            })
            .collect();
        files.sort();
        writeln!(code, "pub(crate) const {}: &[(i64, &str, &str)] = &[", backend.to_uppercase()).unwrap();
        for (version, description, path) in files {
            writeln!(code, "    ({version}, {description:?}, include_str!({path:?})),").unwrap();
        }
        writeln!(code, "];").unwrap();
    }
    std::fs::write(Path::new(&out).join("migrations.rs"), code).expect("writing the migration list");
}
