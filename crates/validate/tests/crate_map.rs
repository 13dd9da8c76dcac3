//! The crate map of docs/architecture.md ("Layers": crate → what it holds → what it may use)
//! is the truth: every workspace crate has a row, and its "may use" column names exactly the
//! warpscope crates of its `[dependencies]` (dev-dependencies may reach further).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn manifest(folder: &str) -> toml::Table {
    let p = root().join(folder).join("Cargo.toml");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn package_name(folder: &str) -> String {
    manifest(folder)["package"]["name"]
        .as_str()
        .unwrap_or_else(|| panic!("{folder}/Cargo.toml: no package name"))
        .to_string()
}

/// The warpscope crates `folder`'s package depends on (not dev or build dependencies).
fn dependencies(folder: &str) -> BTreeSet<String> {
    manifest(folder)
        .get("dependencies")
        .and_then(|d| d.as_table())
        .map(|d| {
            d.keys()
                .filter(|k| k.starts_with("warpscope"))
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// Workspace member folders, `dir/*` globs expanded to the folders holding a Cargo.toml.
fn members() -> BTreeSet<String> {
    let ws = manifest(".");
    let list = ws["workspace"]["members"]
        .as_array()
        .expect("workspace.members")
        .iter()
        .filter_map(|m| m.as_str());
    let mut out = BTreeSet::new();
    for m in list {
        if let Some(dir) = m.strip_suffix("/*") {
            for e in std::fs::read_dir(root().join(dir)).unwrap().flatten() {
                if e.path().join("Cargo.toml").is_file() {
                    out.insert(format!("{dir}/{}", e.file_name().to_string_lossy()));
                }
            }
        } else {
            out.insert(m.to_string());
        }
    }
    out
}

/// The map's rows: folder → the short names of its "may use" column (`—` for none).
fn map_rows(doc: &str) -> BTreeMap<String, Vec<String>> {
    let mut rows = BTreeMap::new();
    let mut in_map = false;
    for line in doc.lines() {
        if line.starts_with("| crate (folder) | holds | may use |") {
            in_map = true;
            continue;
        }
        if !in_map || line.starts_with("|---") {
            continue;
        }
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
        assert_eq!(
            cells.len(),
            3,
            "architecture.md map row with a `|` inside: {line}"
        );
        let folder = cells[0]
            .split("(`")
            .nth(1)
            .and_then(|s| s.split("`)").next())
            .unwrap_or_else(|| panic!("architecture.md map row without a (`folder`): {line}"));
        let uses = cells[2].trim();
        let uses = if uses == "—" {
            Vec::new()
        } else {
            uses.split(',').map(|s| s.trim().to_string()).collect()
        };
        rows.insert(folder.to_string(), uses);
    }
    rows
}

#[test]
fn architecture_map_matches_the_manifests() {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let rows = map_rows(&doc);
    assert!(
        !rows.is_empty(),
        "docs/architecture.md has no crate map table"
    );
    let mut wrong = Vec::new();
    for m in members() {
        if !rows.contains_key(&m) {
            wrong.push(format!(
                "{m}: a workspace crate missing from the map (add its row)"
            ));
        }
    }
    for (folder, uses) in &rows {
        if !root().join(folder).join("Cargo.toml").is_file() {
            wrong.push(format!("{folder}: in the map, but no crate there"));
            continue;
        }
        let said: BTreeSet<String> = uses
            .iter()
            .map(|u| package_name(&format!("crates/{u}")))
            .collect();
        let real = dependencies(folder);
        if said != real {
            wrong.push(format!(
                "{folder}: the map says it uses {said:?}, its Cargo.toml has {real:?}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "docs/architecture.md's crate map is out of date:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn reads_map_rows() {
    let doc = "x\n| crate (folder) | holds | may use |\n|---|---|---|\n\
| `a` (`crates/a`) | things, more | — |\n| `b` (`crates/b`) | b | a, c |\n\nafter\n| x | y | z |\n";
    let rows = map_rows(doc);
    assert_eq!(rows.len(), 2);
    assert!(rows["crates/a"].is_empty());
    assert_eq!(rows["crates/b"], vec!["a".to_string(), "c".to_string()]);
}
