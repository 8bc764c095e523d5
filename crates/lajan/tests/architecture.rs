//! The map in docs/architecture.md, checked: no source file imports, directly or through others,
//! a file that imports it back; each crate depends only on the layers below it; no source file
//! passes the size a reader can hold.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 600;

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's module path inside its crate: `routes/payouts` for `src/routes/payouts.rs`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    parts.join("/")
}

/// The code of a file without comments (and whatever follows `//` in a string, which names no
/// import) and without its unit tests.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The paths after each `crate::` or `super::` in `code`, with `{a, b::c}` groups expanded.
fn paths(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        if code[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            for item in inner.split(',') {
                found.push(item.trim().split("::").map(|s| s.trim().to_owned()).collect());
            }
        } else {
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
            found.push(rest[..end].split("::").filter(|s| !s.is_empty()).map(str::to_owned).collect());
        }
    }
    found
}

/// The files each file of the crate at `src` imports.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeMap<String, PathBuf> = files.iter().map(|f| (module_of(src, f), f.clone())).collect();
    let mut graph = BTreeMap::new();
    for (module, file) in &modules {
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let parent: Vec<String> = module.split('/').filter(|s| !s.is_empty()).map(str::to_owned).collect();
        let parent = parent[..parent.len().saturating_sub(1)].to_vec();
        let mut deps = BTreeSet::new();
        for (prefix, base) in [("crate::", Vec::new()), ("super::", parent)] {
            for path in paths(&code, prefix) {
                let full: Vec<String> = base.iter().cloned().chain(path).collect();
                let target = (1..=full.len()).rev().map(|k| full[..k].join("/")).find(|m| modules.contains_key(m));
                if let Some(target) = target.filter(|t| t != module) {
                    deps.insert(target);
                }
            }
        }
        graph.insert(module.clone(), deps);
    }
    graph
}

/// A cycle through `start`, if there is one.
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        at: &str,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in graph.get(at).into_iter().flatten() {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(graph, next, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_owned()];
    walk(graph, start, start, &mut path, &mut BTreeSet::new()).then_some(path)
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let mut cycles = Vec::new();
    for entry in std::fs::read_dir(crates_dir()).unwrap().map(Result::unwrap) {
        let src = entry.path().join("src");
        if !src.is_dir() {
            continue;
        }
        let graph = imports(&src);
        assert!(graph.len() > 1 || entry.file_name() == "lajan-bench", "{:?} has its files", entry.file_name());
        for module in graph.keys() {
            if let Some(cycle) = cycle_from(&graph, module) {
                cycles.push(format!("{}: {}", entry.file_name().to_string_lossy(), cycle.join(" -> ")));
            }
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_checker_finds_a_cycle() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("state".to_owned(), BTreeSet::from(["auth".to_owned()])),
        ("auth".to_owned(), BTreeSet::from(["state".to_owned()])),
        ("routes".to_owned(), BTreeSet::from(["auth".to_owned()])),
    ]
    .into();
    assert_eq!(cycle_from(&graph, "state"), Some(vec!["state".to_owned(), "auth".to_owned()]));
    assert_eq!(cycle_from(&graph, "routes"), None);
    let code = "use crate::{auth::AuthContext, state};\nuse super::x::Y; // crate::z\n";
    assert_eq!(paths(&code_of(code), "crate::"), vec![vec!["auth", "AuthContext"], vec!["state"]]);
}

/// The `lajan-*` crates a crate's manifest names under `[dependencies]`.
fn layer_dependencies(krate: &str) -> BTreeSet<String> {
    let manifest = std::fs::read_to_string(crates_dir().join(krate).join("Cargo.toml")).unwrap();
    let deps = manifest.split("[dependencies]").nth(1).unwrap_or("");
    let deps = deps.split("\n[").next().unwrap_or("");
    deps.lines()
        .filter_map(|l| l.split(['.', ' ', '=']).next())
        .filter(|n| n.starts_with("lajan-"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn each_crate_depends_only_on_the_layers_below_it() {
    let allowed: [(&str, &[&str]); 7] = [
        ("lajan-domain", &[]),
        ("lajan-store", &["lajan-domain"]),
        ("lajan-ledger", &["lajan-domain", "lajan-store"]),
        ("lajan-services", &["lajan-domain", "lajan-store", "lajan-ledger"]),
        ("lajan-console", &["lajan-domain", "lajan-store", "lajan-services"]),
        ("lajan-api", &["lajan-domain", "lajan-store", "lajan-ledger", "lajan-services", "lajan-console"]),
        ("lajan-worker", &["lajan-domain", "lajan-store", "lajan-ledger", "lajan-services"]),
    ];
    for (krate, below) in allowed {
        let found = layer_dependencies(krate);
        let extra: Vec<_> = found.iter().filter(|d| !below.contains(&d.as_str())).collect();
        assert!(extra.is_empty(), "{krate} depends on {extra:?}, above or beside it (docs/architecture.md)");
    }
    assert!(layer_dependencies("lajan-api").contains("lajan-services"), "the manifest was read");
}

#[test]
fn no_source_file_is_too_long_to_hold_in_mind() {
    let mut long = Vec::new();
    for entry in std::fs::read_dir(crates_dir()).unwrap().map(Result::unwrap) {
        let src = entry.path().join("src");
        if !src.is_dir() {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in files {
            let lines = std::fs::read_to_string(&file).unwrap().lines().count();
            if lines > MAX_LINES {
                long.push(format!("{} ({lines} lines)", file.display()));
            }
        }
    }
    assert!(long.is_empty(), "over {MAX_LINES} lines: {long:?}");
}
