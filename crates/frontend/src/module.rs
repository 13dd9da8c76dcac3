//! Parse and lower in one step, with every syntax and name error rendered like rustc's.

use crate::{CompileOptions, LoadError as InputError, PtxSource, SourceMap, load_ptx};
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;
use std::path::Path;
use warpscope_ir::Module;
use warpscope_ptx::Span;

/// A module ready for analysis or execution.
#[derive(Debug)]
pub struct LoadedModule {
    /// The PTX text and where it came from.
    pub source: PtxSource,
    /// The lowered IR.
    pub module: Module,
    /// The CUDA sources named by `.file`, where found.
    pub source_map: SourceMap,
}

/// Why a module could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ModuleError {
    #[error(transparent)]
    Input(#[from] InputError),
    /// The PTX has syntax or name errors; `rendered` shows each with file:line:col and a
    /// snippet.
    #[error("{rendered}{count} error(s) in {file}")]
    Invalid {
        file: String,
        count: usize,
        rendered: String,
    },
}

/// Renders `(span, message)` errors against `text` as codespan diagnostics.
pub fn render_errors<'e>(
    file_name: &str,
    text: &str,
    errors: impl IntoIterator<Item = (Span, &'e str)>,
) -> String {
    let file = SimpleFile::new(file_name, text);
    let config = term::Config::default();
    let mut out = String::new();
    for (span, message) in errors {
        let mut start = (span.start as usize).min(text.len());
        while start > 0 && !text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (span.end as usize).clamp(start, text.len());
        while end < text.len() && !text.is_char_boundary(end) {
            end += 1;
        }
        let diag = Diagnostic::error()
            .with_message(message)
            .with_labels(vec![Label::primary((), start..end)]);
        match term::emit_into_string(&config, &file, &diag) {
            Ok(s) => out.push_str(&s),
            Err(_) => out.push_str(&format!("error: {message} (at byte {start})\n")),
        }
    }
    out
}

/// Parses and lowers PTX text that came from `source`.
pub fn lower_source(source: PtxSource) -> Result<LoadedModule, ModuleError> {
    let (module, errors) = {
        let (ast, parse_errors) = warpscope_ptx::parse(&source.text);
        if !parse_errors.is_empty() {
            let rendered = render_errors(
                &source.display_name,
                &source.text,
                parse_errors.iter().map(|e| (e.span, e.message.as_str())),
            );
            return Err(ModuleError::Invalid {
                file: source.display_name.clone(),
                count: parse_errors.len(),
                rendered,
            });
        }
        warpscope_ir::lower_module(ast)
    };
    if !errors.is_empty() {
        let rendered = render_errors(
            &source.display_name,
            &source.text,
            errors.iter().map(|e| (e.span, e.message.as_str())),
        );
        return Err(ModuleError::Invalid {
            file: source.display_name.clone(),
            count: errors.len(),
            rendered,
        });
    }
    let ptx_path = (source.kind == crate::InputKind::Ptx).then_some(source.input.as_path());
    let mut source_map = SourceMap::resolve(
        module.files.iter().map(|(i, p)| (*i, p.as_str())),
        ptx_path.or(source.input.parent()),
    );
    if source.kind == crate::InputKind::Cuda {
        source_map.prefer(&source.input);
    }
    Ok(LoadedModule {
        source,
        module,
        source_map,
    })
}

/// Reads (or compiles) `path`, then parses and lowers it.
pub fn load_module(path: &Path, opts: &CompileOptions) -> Result<LoadedModule, ModuleError> {
    lower_source(load_ptx(path, opts)?)
}
