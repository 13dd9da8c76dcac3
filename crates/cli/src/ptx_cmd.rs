//! `warpscope ptx FILE`: read PTX (or compile CUDA), report syntax errors, and print a
//! summary of its functions, the IR with its analyses, or the CFG in DOT.

use crate::load::{CompileArgs, load_or_report};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use warpscope_ir::{FunctionAnalyses, Module, cfg_dot, print_function};

#[derive(Args, Debug)]
pub struct PtxArgs {
    /// A .ptx file, or a .cu file to compile with nvcc (or clang).
    pub file: PathBuf,
    /// Print the control-flow graph instead of the summary.
    #[arg(long, value_enum)]
    pub cfg: Option<CfgFormat>,
    /// Print the IR: blocks with CFG edges, (post-)dominators, loops and source lines.
    #[arg(long, conflicts_with = "cfg")]
    pub ir: bool,
    /// Only this function (mangled PTX name or a substring of it).
    #[arg(long)]
    pub kernel: Option<String>,
    #[command(flatten)]
    pub compile: CompileArgs,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum CfgFormat {
    /// Graphviz DOT.
    Dot,
}

fn selected<'m>(module: &'m Module, filter: Option<&str>) -> Vec<&'m warpscope_ir::Function> {
    module
        .funcs
        .values()
        .filter(|f| filter.is_none_or(|k| f.name == k || f.name.contains(k)))
        .collect()
}

pub fn run(args: PtxArgs) -> ExitCode {
    let Some(loaded) = load_or_report(&args.file, &args.compile) else {
        return ExitCode::FAILURE;
    };
    let module = &loaded.module;
    let funcs = selected(module, args.kernel.as_deref());
    if funcs.is_empty()
        && let Some(k) = &args.kernel
    {
        eprintln!(
            "error: no function matches `{k}` in {}",
            loaded.source.display_name
        );
        return ExitCode::FAILURE;
    }
    if let Some(CfgFormat::Dot) = args.cfg {
        for f in funcs.iter().filter(|f| !f.is_declaration) {
            print!("{}", cfg_dot(f));
        }
        return ExitCode::SUCCESS;
    }
    if args.ir {
        let mut out = String::new();
        for f in funcs {
            print_function(&mut out, module, f);
            out.push('\n');
        }
        print!("{out}");
        return ExitCode::SUCCESS;
    }
    println!(
        "{}: PTX {}.{}, target {}, address size {}, {} bytes",
        loaded.source.display_name,
        module.version.0,
        module.version.1,
        module.target.join(","),
        module.address_size,
        loaded.source.text.len()
    );
    let (mut blocks, mut insts) = (0, 0);
    for f in &funcs {
        if f.is_declaration {
            println!("  declared {} {}", f.kind, f.name);
            continue;
        }
        let a = FunctionAnalyses::compute(f);
        let branches = f
            .blocks
            .keys()
            .filter(|&b| a.cfg.succs(b).len() > 1)
            .count();
        let lines: std::collections::BTreeSet<u32> = f
            .insts
            .values()
            .filter_map(|i| i.loc.map(|l| l.line))
            .collect();
        println!(
            "  {} {}: {} params, {} registers, {} blocks, {} instructions, {} conditional branches, {} loops, source lines {}",
            f.kind,
            f.name,
            f.params.len(),
            f.regs.len(),
            f.blocks.len(),
            f.insts.len(),
            branches,
            a.loops.loops().count(),
            match (lines.first(), lines.last()) {
                (Some(a), Some(b)) => format!("{a}-{b}"),
                _ => "-".to_string(),
            }
        );
        blocks += f.blocks.len();
        insts += f.insts.len();
    }
    let kernels = funcs
        .iter()
        .filter(|f| f.kind == warpscope_ptx::FunctionKind::Entry && !f.is_declaration)
        .count();
    println!(
        "total: {} functions ({} kernels), {} globals, {} blocks, {} instructions",
        funcs.len(),
        kernels,
        module.globals.len(),
        blocks,
        insts
    );
    ExitCode::SUCCESS
}
