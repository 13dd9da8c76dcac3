//! Line tables kept on disk, so checking an unchanged module again does not run ptxas (nor read
//! its cubin) again. One small text file per (tools, target, PTX text); a file that cannot be
//! read back is ignored and rewritten.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use crate::{LineBranches, LineSass};

const MAGIC: &str = "warpscope-sass-lines 1";

/// The cache file for a module: keyed by everything the listing depends on.
pub fn path(dir: &Path, tools_id: &str, arch: &str, ptx: &str) -> PathBuf {
    let mut h = rustc_hash::FxHasher::default();
    MAGIC.hash(&mut h);
    tools_id.hash(&mut h);
    arch.hash(&mut h);
    ptx.hash(&mut h);
    dir.join(format!("{:016x}-{}.lines", h.finish(), ptx.len()))
}

/// Reads a table written by [`store`] (`None` when absent or not readable as one).
pub fn load(file: &Path) -> Option<LineBranches> {
    let text = std::fs::read_to_string(file).ok()?;
    from_text(&text)
}

/// Writes `table` to `file` (through a temporary file and a rename, so a reader never sees half
/// of one). Failures are ignored: the cache only saves time.
pub fn store(file: &Path, table: &LineBranches) {
    let Some(dir) = file.parent() else {
        return;
    };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let tmp = file.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&tmp, to_text(table)).is_ok() && std::fs::rename(&tmp, file).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// The table as text: a header, the tools, the files, then one row per (function, file, line).
pub fn to_text(t: &LineBranches) -> String {
    let mut s = format!(
        "{MAGIC}\nby\t{}\n",
        t.produced_by.replace(['\t', '\n'], " ")
    );
    for (i, f) in t.files.iter().enumerate() {
        s.push_str(&format!("file\t{i}\t{}\n", f.replace(['\t', '\n'], " ")));
    }
    let mut rows: Vec<_> = t
        .functions
        .iter()
        .flat_map(|(name, lines)| lines.iter().map(move |(k, v)| (name, *k, *v)))
        .collect();
    rows.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    for (name, (file, line), v) in rows {
        s.push_str(&format!(
            "line\t{name}\t{file}\t{line}\t{}\t{}\n",
            v.instructions, v.splitting_branches
        ));
    }
    s
}

/// Reads [`to_text`]'s output back (`None` on anything else).
pub fn from_text(text: &str) -> Option<LineBranches> {
    let mut lines = text.lines();
    if lines.next()? != MAGIC {
        return None;
    }
    let mut t = LineBranches::default();
    for l in lines {
        let cols: Vec<&str> = l.split('\t').collect();
        match cols[..] {
            ["by", by] => t.produced_by = by.to_string(),
            ["file", i, path] => {
                let i: u32 = i.parse().ok()?;
                if i as usize != t.files.len() {
                    return None;
                }
                t.files.push(path.to_string());
                t.file_index.insert(path.to_string(), i);
            }
            ["line", name, file, line, instructions, splitting] => {
                let file: u32 = file.parse().ok()?;
                if file as usize >= t.files.len() {
                    return None;
                }
                t.functions.entry(name.to_string()).or_default().insert(
                    (file, line.parse().ok()?),
                    LineSass {
                        instructions: instructions.parse().ok()?,
                        splitting_branches: splitting.parse().ok()?,
                    },
                );
            }
            _ => return None,
        }
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::listing::parse;

    const LISTING: &str = "\t.text._Z1kv:\n\t//## File \"k.cu\", line 3\n\
        /*0000*/ @P0 BRA `(.L_x_1) ;\n/*0010*/ IADD3 R1, R1, 1, RZ ;\n\
        \t//## File \"h.h\", line 9\n/*0020*/ EXIT ;\n";

    #[test]
    fn a_table_reads_back_as_written() {
        let t = LineBranches::new(&parse(LISTING), "ptxas V13.0.88 for sm_90");
        let back = from_text(&to_text(&t)).expect("reads back");
        assert_eq!(back.produced_by, t.produced_by);
        assert_eq!(back.files(), t.files());
        assert_eq!(
            back.line("_Z1kv", "k.cu", 3),
            Some(LineSass {
                instructions: 2,
                splitting_branches: 1
            })
        );
        assert_eq!(back.line("_Z1kv", "h.h", 9), t.line("_Z1kv", "h.h", 9));
        assert_eq!(to_text(&back), to_text(&t));
    }

    #[test]
    fn damaged_files_are_not_tables() {
        let t = LineBranches::new(&parse(LISTING), "x");
        let good = to_text(&t);
        assert!(from_text("").is_none());
        assert!(from_text(&good.replace(MAGIC, "warpscope-sass-lines 0")).is_none());
        assert!(from_text(&good.replace("\t3\t", "\tthree\t")).is_none());
        assert!(from_text(&format!("{good}line\tf\t7\t1\t1\t0\n")).is_none());
        // A file cut short is still a (smaller) table only where whole rows remain.
        let cut = &good[..good.len() - 3];
        assert!(from_text(cut).is_none_or(|t| t.line("_Z1kv", "k.cu", 3).is_some()));
    }

    #[test]
    fn the_key_follows_the_tools_and_the_text() {
        let d = Path::new("/c");
        let a = path(d, "ptxas V1", "sm_90", "x");
        assert_eq!(a, path(d, "ptxas V1", "sm_90", "x"));
        assert_ne!(a, path(d, "ptxas V2", "sm_90", "x"));
        assert_ne!(a, path(d, "ptxas V1", "sm_80", "x"));
        assert_ne!(a, path(d, "ptxas V1", "sm_90", "y"));
    }
}
