//! The CUDA sources behind a PTX module, read from disk so reports can quote source lines.
//!
//! PTX names its sources with `.file N "path"`; paths may be absolute (nvcc given an absolute
//! input), relative to where the compiler ran (our committed corpus uses repository-relative
//! paths), or gone. Each is looked up directly, then under the PTX file's directory and each of
//! its ancestors, then under the current directory. Missing files are not an error: findings
//! then show the PTX location alone.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One source file named by a `.file` directive.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The name exactly as the PTX gives it.
    pub name: String,
    /// Where it was found on disk, if anywhere.
    pub path: Option<PathBuf>,
    text: Option<String>,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// The file's text, when it was found.
    pub fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// Line `line` (1-based) without its line terminator.
    pub fn line(&self, line: u32) -> Option<&str> {
        let text = self.text.as_deref()?;
        let i = (line as usize).checked_sub(1)?;
        let start = *self.line_starts.get(i)?;
        let end = self.line_starts.get(i + 1).copied().unwrap_or(text.len());
        text.get(start..end)
            .map(|l| l.trim_end_matches(['\n', '\r']))
    }

    /// Byte offset of (line, column), both 1-based, clamped into the file.
    pub fn offset(&self, line: u32, col: u32) -> Option<usize> {
        let text = self.text.as_deref()?;
        let i = (line as usize).checked_sub(1)?;
        let start = *self.line_starts.get(i)?;
        let end = self.line_starts.get(i + 1).copied().unwrap_or(text.len());
        Some((start + (col as usize).saturating_sub(1)).min(end))
    }
}

/// Sources of one module, keyed by their `.file` index.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: HashMap<u32, SourceFile>,
}

impl SourceMap {
    /// Resolves `.file` entries `(index, name)` for a PTX module read from `ptx_path` (if any).
    pub fn resolve<'a>(
        entries: impl IntoIterator<Item = (u32, &'a str)>,
        ptx_path: Option<&Path>,
    ) -> SourceMap {
        let mut dirs: Vec<PathBuf> = Vec::new();
        if let Some(p) = ptx_path {
            let abs = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
            let mut d = abs.parent();
            while let Some(dir) = d {
                dirs.push(dir.to_path_buf());
                d = dir.parent();
            }
        }
        if let Ok(cwd) = std::env::current_dir() {
            dirs.push(cwd);
        }
        let mut files = HashMap::new();
        for (index, name) in entries {
            let path = find(name, &dirs);
            let text = path.as_ref().and_then(|p| read_text(p).ok());
            let line_starts = text.as_deref().map(line_starts).unwrap_or_default();
            files.insert(
                index,
                SourceFile {
                    name: name.to_string(),
                    path,
                    text,
                    line_starts,
                },
            );
        }
        SourceMap { files }
    }

    /// Makes `.file` entries that name `input` (compared by file name, since the compiler may
    /// have written it differently) read from `input` itself.
    pub fn prefer(&mut self, input: &Path) {
        let Some(base) = input.file_name() else {
            return;
        };
        for f in self.files.values_mut() {
            if f.path.is_none() && Path::new(&f.name).file_name() == Some(base) {
                f.text = read_text(input).ok();
                f.line_starts = f.text.as_deref().map(line_starts).unwrap_or_default();
                f.path = Some(input.to_path_buf());
            }
        }
    }

    /// The file with `.file` index `index`.
    pub fn file(&self, index: u32) -> Option<&SourceFile> {
        self.files.get(&index)
    }

    /// Line `line` of file `index`.
    pub fn line(&self, index: u32, line: u32) -> Option<&str> {
        self.file(index)?.line(line)
    }
}

fn find(name: &str, dirs: &[PathBuf]) -> Option<PathBuf> {
    let p = Path::new(name);
    if p.is_absolute() {
        return p.is_file().then(|| p.to_path_buf());
    }
    dirs.iter().map(|d| d.join(p)).find(|c| c.is_file())
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// A source file's text for display and host-code reading: bytes that are not UTF-8 (sources
/// in Latin-1 exist: HeCBench's hwt1d) become U+FFFD instead of losing the whole file.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    std::fs::read(path).map(|b| String::from_utf8_lossy(&b).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_one_based_and_trimmed() {
        let f = SourceFile {
            name: "x".into(),
            path: None,
            text: Some("a\r\nbb\nccc".into()),
            line_starts: line_starts("a\r\nbb\nccc"),
        };
        assert_eq!(f.line(1), Some("a"));
        assert_eq!(f.line(2), Some("bb"));
        assert_eq!(f.line(3), Some("ccc"));
        assert_eq!(f.line(0), None);
        assert_eq!(f.line(4), None);
        assert_eq!(f.offset(2, 2), Some(4));
        assert_eq!(f.offset(2, 99), Some(6));
    }

    #[test]
    fn relative_names_resolve_against_ancestors_of_the_ptx() {
        let dir = std::env::temp_dir().join(format!("ws-srcmap-{}", std::process::id()));
        let sub = dir.join("corpus");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join("k.cu"), "line1\nline2\n").unwrap();
        std::fs::write(sub.join("k.ptx"), "").unwrap();
        let map = SourceMap::resolve(
            [(1, "corpus/k.cu"), (2, "gone.cu")],
            Some(&sub.join("k.ptx")),
        );
        assert_eq!(map.line(1, 2), Some("line2"));
        assert!(map.file(2).is_some_and(|f| f.path.is_none()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
