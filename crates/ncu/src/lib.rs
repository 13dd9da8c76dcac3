//! # warpscope-ncu
//!
//! Reading what Nsight Compute measured per CUDA source line: the one reader behind
//! `warpscope profile --compare-ncu` (crate `warpscope-profile`), the H100 comparison of
//! `warpscope check` (crate `warpscope-validate`) and the real-world scorer
//! (`validation/realworld/scorer`). It reads
//!
//! * the source page, `ncu -i REPORT --page source --csv --print-source cuda,sass`: for each
//!   profiled kernel a `"Kernel Name",…` (or `"Function Name"`) row, `"File Path"` rows, a header
//!   row (`"Line No","Source",<metrics>…`; the correlated view adds `"Address","Source"`), then
//!   one row per CUDA line, each followed by the SASS rows of its instructions;
//! * the reduced per-line tables, tab separated with a header: `corpus/tools/ncu-lines.sh`'s
//!   (`corpus/h100/*.tsv`: `file line inst l2_sectors l2_ideal l2_excess shared_nway source`) and
//!   `scripts/h100/reduce_ncu.py`'s (`validation/h100/ncu/*.lines.tsv`: `kernel file line inst
//!   thread_inst pred_on_thread_inst l2_sectors l2_ideal l2_excess … shared_nway …`) and
//!   `scripts/realworld/reduce.py`'s (`validation/realworld/truth/*.lines.tsv`, the same with
//!   `launches` and `divergent_branches`);
//! * `reduce_ncu.py`'s kernel-level table (`*.shared.tsv`: `kernel launch metric value`).
//!
//! [`SourcePage::parse`] reads either per-line form into one [`LineCounters`] per row, with
//! every numeric column by name; [`NcuSource`] sums those rows per (file, line) into the typed
//! counters a profile is compared with. Nothing here knows about warpscope's own results.

mod csv;
mod page;
mod sums;

pub use csv::{number, records};
pub use page::{LineCounters, SassRow, SourcePage, basename, parse_kernel_metrics_tsv};
pub use sums::{NcuLine, NcuSource, parse_source_csv};
