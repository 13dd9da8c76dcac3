//! Times [`compile`] (ptxas, then the cubin read directly) against [`compile_with_nvdisasm`]
//! (ptxas, then nvdisasm's listing) on each PTX file named, best of 3 each, and checks that both
//! give the same line table. A `.cubin` file named instead is only read ([`read_cubin`]), best
//! of 3:
//!
//! ```sh
//! cargo run --release -p warpscope-sass --features tools --example compile_time -- validation/realworld/ptx/cs_vectorAdd.ptx
//! ```

use std::time::{Duration, Instant};

use warpscope_sass::{LineBranches, Toolchain, compile, compile_with_nvdisasm, read_cubin};

fn best_of_3(f: impl Fn() -> LineBranches) -> (Duration, LineBranches) {
    let mut best = Duration::MAX;
    let mut table = LineBranches::default();
    for _ in 0..3 {
        let t = Instant::now();
        table = f();
        best = best.min(t.elapsed());
    }
    (best, table)
}

fn main() {
    let find = warpscope_frontend::toolchain::find_cuda_tool;
    let (Some(ptxas), Some(nvdisasm)) = (find("ptxas"), find("nvdisasm")) else {
        eprintln!("ptxas and nvdisasm are needed");
        std::process::exit(2);
    };
    let tools = Toolchain::new(ptxas, nvdisasm);
    println!("| module | nvdisasm (before) | cubin reader (now) |");
    println!("|---|---:|---:|");
    for path in std::env::args().skip(1) {
        if path.ends_with(".cubin") {
            let bytes = std::fs::read(&path).expect("reads the cubin");
            let (t, table) =
                best_of_3(|| LineBranches::new(&read_cubin(&bytes).expect("reads"), ""));
            println!(
                "| `{path}` read alone | | {:.4} s ({} files) |",
                t.as_secs_f64(),
                table.files().len()
            );
            continue;
        }
        let ptx = std::fs::read_to_string(&path).expect("reads the PTX file");
        let run = |with_nvdisasm: bool| {
            let listing = if with_nvdisasm {
                compile_with_nvdisasm(&tools, &ptx, "sm_90")
            } else {
                compile(&tools, &ptx, "sm_90")
            };
            LineBranches::new(&listing.expect("compiles"), "")
        };
        let (old, a) = best_of_3(|| run(true));
        let (new, b) = best_of_3(|| run(false));
        let same = warpscope_sass::cache::to_text(&a) == warpscope_sass::cache::to_text(&b);
        println!(
            "| `{}` | {:.3} s | {:.3} s |{}",
            std::path::Path::new(&path)
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned()),
            old.as_secs_f64(),
            new.as_secs_f64(),
            if same { "" } else { " tables differ" }
        );
    }
}
