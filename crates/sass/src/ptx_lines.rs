//! Which PTX instruction each SASS instruction came from.
//!
//! ptxas's line table maps SASS to the positions the PTX's `.loc` directives name, which are
//! CUDA source lines: many PTX instructions share one. To map SASS back to PTX instructions
//! instead, [`compile_by_ptx_line`] gives ptxas a copy of the module whose own `.file`/`.loc`
//! directives are blanked out and in which every PTX instruction is preceded, on its own line,
//! by `.loc 1 N 0` naming that line `N` of the original text (a synthetic file
//! [`PTX_LINES_FILE`]); blanking rather than deleting keeps every line where it was. The cubin's
//! line table then names, for each SASS instruction, the PTX line of the instruction ptxas
//! made it from (for code it moved, the line it was moved from). [`PtxLineSass`] holds the
//! result: per function and PTX line, the SASS opcodes.
//!
//! This does not change [`crate::compile`]; it calls [`crate::compile::compile_verbose`] on the
//! rewritten text.

use rustc_hash::FxHashMap;

use crate::compile::{SassError, Toolchain, compile_verbose};
use crate::listing::Guard;

/// The file name the rewritten module's `.loc` directives refer to.
pub const PTX_LINES_FILE: &str = "warpscope-ptx-lines";

/// One SASS instruction's offset in its function, guard predicate and operands as nvdisasm
/// prints them (empty when nvdisasm was not run).
pub type SassOperands = (u32, Option<Guard>, String);

/// The SASS of a module, by PTX line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PtxLineSass {
    /// Per function (the PTX `.entry`/`.func` name): per 1-based PTX line, the SASS opcodes
    /// (base mnemonic, as [`crate::cubin::read`] decodes them) in address order.
    pub functions: FxHashMap<String, FxHashMap<u32, Vec<String>>>,
    /// Per function and PTX line, the SASS loop depth of each of those opcodes (same order):
    /// how many loops of the SASS's own control flow contain it ([`crate::flow::loop_depths`]).
    pub depths: FxHashMap<String, FxHashMap<u32, Vec<u32>>>,
    /// Per function and PTX line, each of those opcodes' offset in the function, guard
    /// predicate and operands as nvdisasm prints them (same order; the operands empty when
    /// nvdisasm was not run).
    pub operands: FxHashMap<String, FxHashMap<u32, Vec<SassOperands>>>,
    /// SASS instructions that carry no line of the rewritten module (`NOP` padding, the
    /// trailing self-branch; anything else is counted here too).
    pub unattributed: usize,
    /// What ptxas reported of the compile with `-v` (registers and stack frame per function).
    pub ptxas_info: String,
}

impl PtxLineSass {
    /// The SASS opcodes of `function` made from PTX line `line`.
    pub fn at(&self, function: &str, line: u32) -> &[String] {
        self.functions
            .get(function)
            .and_then(|f| f.get(&line))
            .map_or(&[], Vec::as_slice)
    }

    /// The SASS loop depths of the opcodes [`PtxLineSass::at`] gives (empty when unknown).
    pub fn depths_at(&self, function: &str, line: u32) -> &[u32] {
        self.depths
            .get(function)
            .and_then(|f| f.get(&line))
            .map_or(&[], Vec::as_slice)
    }

    /// The offsets, guards and operands of the opcodes [`PtxLineSass::at`] gives (empty when
    /// unknown).
    pub fn operands_at(&self, function: &str, line: u32) -> &[SassOperands] {
        self.operands
            .get(function)
            .and_then(|f| f.get(&line))
            .map_or(&[], Vec::as_slice)
    }

    /// All SASS instructions attributed to a PTX line.
    pub fn attributed(&self) -> usize {
        self.functions
            .values()
            .flat_map(|f| f.values())
            .map(Vec::len)
            .sum()
    }
}

/// `ptx` with its `.file` and `.loc` directives blanked and `.loc 1 N 0` before each line of
/// `instruction_lines` (1-based lines where a PTX instruction starts), plus the `.file`
/// directive naming [`PTX_LINES_FILE`] at the end. Lines out of range are ignored; the result
/// has the same lines as `ptx` at the same numbers, with directives put in front of them.
pub fn rewrite_locs(ptx: &str, instruction_lines: &[u32]) -> String {
    let mut marked = vec![false; ptx.lines().count() + 1];
    for &l in instruction_lines {
        if let Some(m) = marked.get_mut(l as usize) {
            *m = true;
        }
    }
    let mut out = String::with_capacity(ptx.len() + 16 * instruction_lines.len() + 64);
    for (i, line) in ptx.lines().enumerate() {
        let n = i + 1;
        let t = line.trim_start();
        // `.loc` and `.file` directives, not `.local` declarations
        let directive = |d: &str| {
            t.strip_prefix(d)
                .is_some_and(|r| r.starts_with(|c: char| c.is_whitespace()))
        };
        if directive(".loc") || directive(".file") {
            out.push('\n');
            continue;
        }
        if marked[n] {
            // on the same line, before the instruction, so line numbers stay the same
            out.push_str(&format!(".loc\t1 {n} 0 "));
        }
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&format!("\t.file\t1 \"{PTX_LINES_FILE}\"\n"));
    out
}

/// Compiles `ptx` for `arch` with ptxas (as [`compile`] does) after [`rewrite_locs`], and
/// groups the SASS by the PTX line each instruction came from, with each instruction's loop
/// depth in the SASS's control flow, its offset and operands (when `tools` names nvdisasm) and
/// ptxas's `-v` report of the same compile.
pub fn compile_by_ptx_line(
    tools: &Toolchain,
    ptx: &str,
    instruction_lines: &[u32],
    arch: &str,
) -> Result<PtxLineSass, SassError> {
    let (listing, info) = compile_verbose(tools, &rewrite_locs(ptx, instruction_lines), arch)?;
    let file = listing
        .files
        .iter()
        .position(|f| f.ends_with(PTX_LINES_FILE));
    let mut out = PtxLineSass {
        ptxas_info: info,
        ..PtxLineSass::default()
    };
    for func in &listing.functions {
        let loop_depth = crate::flow::loop_depths(&func.instructions);
        let lines = out.functions.entry(func.name.clone()).or_default();
        let depths = out.depths.entry(func.name.clone()).or_default();
        let operands = out.operands.entry(func.name.clone()).or_default();
        for (inst, &d) in func.instructions.iter().zip(&loop_depth) {
            match inst.source {
                Some((f, line)) if Some(f as usize) == file && line > 0 => {
                    lines.entry(line).or_default().push(inst.opcode.clone());
                    depths.entry(line).or_default().push(d);
                    operands.entry(line).or_default().push((
                        inst.offset,
                        inst.guard,
                        inst.operands.clone(),
                    ));
                }
                _ => out.unattributed += 1,
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewriting_keeps_line_numbers_and_drops_cuda_positions() {
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.loc\t1 3 5\n\tret;\n}\n\t.file\t1 \"a.cu\"\n\t.local .align 4 .b8 d[4];\n";
        let out = rewrite_locs(ptx, &[7, 99]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[5], "");
        assert_eq!(lines[6], ".loc\t1 7 0 \tret;");
        assert_eq!(lines[8], "");
        assert_eq!(lines[9], "\t.local .align 4 .b8 d[4];");
        assert!(lines[10].contains(PTX_LINES_FILE));
        assert!(!out.contains("a.cu"));
    }
}
