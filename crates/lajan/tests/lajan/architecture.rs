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

/// A use tree's paths with `{a, b::{c, self}}` groups expanded (nested too), and `x as y`
/// read as `x`.
fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree: String = tree.chars().map(|c| if c.is_whitespace() { ' ' } else { c }).collect();
    let tree = tree.trim();
    let segments = |text: &str| -> Vec<String> {
        text.split("::").map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect()
    };
    let Some(open) = tree.find('{') else {
        return vec![segments(tree.split(" as ").next().unwrap_or(""))];
    };
    let head = segments(&tree[..open]);
    let inner = tree[open + 1..].strip_suffix('}').unwrap_or(&tree[open + 1..]);
    let (mut items, mut depth, mut from) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[from..]);
    items
        .into_iter()
        .filter(|item| !item.trim().is_empty())
        .flat_map(expand)
        .map(|tail| head.iter().cloned().chain(tail).collect())
        .collect()
}

/// Every path in `code` that starts with one of `roots` followed by `::` (a whole word), as the
/// text of its use tree (`routes::{self, payouts::list}`), groups included.
fn path_trees<'a>(code: &'a str, roots: &BTreeSet<String>) -> Vec<&'a str> {
    let bytes = code.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !word(bytes[i]) || (i > 0 && (word(bytes[i - 1]) || bytes[i - 1] == b':')) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && word(bytes[i]) {
            i += 1;
        }
        if !roots.contains(&code[start..i]) || !code[i..].starts_with("::") {
            continue;
        }
        let mut depth = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'{' => depth += 1,
                b'}' if depth > 0 => depth -= 1,
                b if depth == 0 && !(word(b) || b == b':') => break,
                _ => {}
            }
            i += 1;
        }
        found.push(&code[start..i]);
    }
    found
}

/// The child modules a file declares without a body (`mod x;`, `pub mod x;`).
fn children(code: &str) -> BTreeSet<String> {
    code.lines()
        .filter_map(|l| {
            let l = l.trim();
            let decl = l.strip_prefix("pub(crate) ").or_else(|| l.strip_prefix("pub ")).unwrap_or(l);
            decl.strip_prefix("mod ")?.strip_suffix(';').map(|name| name.trim().to_owned())
        })
        .collect()
}

/// The module paths (from the crate root) every path of `code` names, in the file of `module`:
/// paths from `crate::`, `super::` and `self::`, from its child modules by their own names, and
/// from the modules it imported by name (`use crate::routes;`, `use crate::routes::{self}`) as
/// later code uses them (`routes::payouts::list`).
fn referenced(code: &str, module: &[String], modules: &BTreeMap<String, PathBuf>) -> Vec<Vec<String>> {
    let kids = children(code);
    let resolve = |path: &[String], aliases: &BTreeMap<String, Vec<String>>| -> Option<Vec<String>> {
        let (first, rest) = path.split_first()?;
        let mut base: Vec<String> = match first.as_str() {
            "crate" => Vec::new(),
            "self" => module.to_vec(),
            "super" => module[..module.len().saturating_sub(1)].to_vec(),
            name if kids.contains(name) => module.iter().cloned().chain([name.to_owned()]).collect(),
            name => aliases.get(name)?.clone(),
        };
        for segment in rest {
            match segment.as_str() {
                "super" => {
                    base.pop();
                }
                "self" => {}
                s => base.push(s.to_owned()),
            }
        }
        Some(base)
    };
    let is_module = |path: &[String]| modules.contains_key(&path.join("/"));
    let mut roots: BTreeSet<String> = ["crate", "self", "super"].map(str::to_owned).into();
    roots.extend(kids.iter().cloned());
    // The names `use` gives to modules of this crate.
    let mut aliases = BTreeMap::new();
    let statements = code.split(';').filter_map(|s| s.trim_start().split_once("use ").map(|(_, tree)| tree));
    for statement in statements {
        for tree in path_trees(statement, &roots) {
            let renamed = statement.split(" as ").nth(1).map(|n| n.trim().to_owned());
            for path in expand(tree) {
                let Some(full) = resolve(&path, &aliases) else { continue };
                let named = match path.last().map(String::as_str) {
                    Some("self") => path.iter().rev().nth(1).cloned(),
                    _ => renamed.clone().or_else(|| path.last().cloned()),
                };
                if let Some(name) = named.filter(|_| is_module(&full)) {
                    aliases.insert(name, full);
                }
            }
        }
    }
    roots.extend(aliases.keys().cloned());
    path_trees(code, &roots).into_iter().flat_map(expand).filter_map(|path| resolve(&path, &aliases)).collect()
}

/// The files each file of the crate at `src` imports.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeMap<String, PathBuf> = files.iter().map(|f| (module_of(src, f), f.clone())).collect();
    let mut graph = BTreeMap::new();
    for (module, file) in &modules {
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let own: Vec<String> = module.split('/').filter(|s| !s.is_empty()).map(str::to_owned).collect();
        let mut deps = BTreeSet::new();
        for full in referenced(&code, &own, &modules) {
            let target = (1..=full.len()).rev().map(|k| full[..k].join("/")).find(|m| modules.contains_key(m));
            if let Some(target) = target.filter(|t| t != module) {
                deps.insert(target);
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
        let one_file = ["lajan-bench", "lajan-testkit"].contains(&entry.file_name().to_string_lossy().as_ref());
        assert!(graph.len() > 1 || one_file, "{:?} has its files", entry.file_name());
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
}

/// The shapes of import a module can take, each found: nested groups, `self` in a group, a
/// module used by the name it was imported as (or renamed to), `super::` and `self::`, and a
/// child module by its own name.
#[test]
fn the_checker_reads_every_shape_of_import() {
    let modules: BTreeMap<String, PathBuf> =
        ["", "openapi", "routes", "routes/payouts", "routes/doc", "state", "auth", "auth/keys", "error"]
            .map(|m| (m.to_owned(), PathBuf::new()))
            .into();
    let found = |module: &str, code: &str| -> BTreeSet<String> {
        let own: Vec<String> = module.split('/').filter(|s| !s.is_empty()).map(str::to_owned).collect();
        referenced(&code_of(code), &own, &modules).into_iter().map(|p| p.join("/")).collect()
    };
    let set = |paths: &[&str]| -> BTreeSet<String> { paths.iter().map(|p| (*p).to_owned()).collect() };
    let openapi = "use crate::{error::ErrorBody, routes::{self, doc::X}};\n#[openapi(paths(routes::payouts::list))]";
    assert_eq!(found("openapi", openapi), set(&["error/ErrorBody", "routes", "routes/doc/X", "routes/payouts/list"]));
    let payouts = "use super::doc::Y; // crate::state\nfn f() { self::g(); crate::auth::keys::check(); }";
    assert_eq!(found("routes/payouts", payouts), set(&["routes/doc/Y", "routes/payouts/g", "auth/keys/check"]));
    let routes = "pub mod payouts;\nmod doc;\nfn router() { payouts::list(); }";
    assert_eq!(found("routes", routes), set(&["routes/payouts/list"]));
    let renamed = "use crate::auth as a;\nuse crate::state;\nfn f() { state::x(); a::keys::k(); }";
    assert_eq!(found("", renamed), set(&["auth", "state", "state/x", "auth/keys/k"]));
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
    let allowed: [(&str, &[&str]); 11] = [
        ("lajan-domain", &[]),
        ("lajan-i18n", &[]),
        ("lajan-store", &["lajan-domain"]),
        ("lajan-ledger", &["lajan-domain", "lajan-store"]),
        ("lajan-services", &["lajan-domain", "lajan-i18n", "lajan-store", "lajan-ledger"]),
        ("lajan-console", &["lajan-domain", "lajan-i18n", "lajan-store", "lajan-services"]),
        (
            "lajan-api",
            &["lajan-domain", "lajan-i18n", "lajan-store", "lajan-ledger", "lajan-services", "lajan-console"],
        ),
        ("lajan-worker", &["lajan-domain", "lajan-i18n", "lajan-store", "lajan-ledger", "lajan-services"]),
        ("lajan", &["lajan-domain", "lajan-store", "lajan-ledger", "lajan-services", "lajan-api", "lajan-worker"]),
        (
            "lajan-bench",
            &["lajan-domain", "lajan-store", "lajan-ledger", "lajan-services", "lajan-api", "lajan-worker"],
        ),
        ("lajan-testkit", &["lajan-domain", "lajan-store", "lajan-services", "lajan-api", "lajan-worker"]),
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

/// The features each package is built with for `cargo build --release -p lajan` (what ships):
/// `cargo tree` over normal and build edges only, as Cargo's resolver sees that build.
fn release_features() -> String {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["tree", "-p", "lajan", "--edges", "normal,build", "--prefix", "none", "--format", "{p} [{f}]"])
        .arg("--offline")
        .current_dir(crates_dir())
        .output()
        .expect("run cargo tree");
    assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_release_build_carries_no_test_hook() {
    let tree = release_features();
    let crates: Vec<&str> = tree.lines().filter(|l| l.starts_with("lajan")).collect();
    assert!(crates.iter().any(|l| l.starts_with("lajan-store ")), "the tree was read: {tree}");
    // The store's fault injection and count bounds, the services' failpoints, the worker's and
    // the ledger's loopback servers: all behind `testing`, which only the tests turn on.
    let hooked: Vec<&&str> = crates.iter().filter(|l| l.contains("testing")).collect();
    assert!(hooked.is_empty(), "test hooks in the release build: {hooked:?}");
}
