//! The global allocator: mimalloc, asked for plain blocks wherever a plain block is aligned
//! enough.
//!
//! The `mimalloc` crate's allocator asks for every block through `mi_malloc_aligned`, even at
//! the 8- or 16-byte alignment every mimalloc block already has. In mimalloc 3 that call takes
//! its fast path only when the size class's page has a free block at hand; otherwise, for
//! sizes that are not a power of two (the 24-, 40- and 48-byte values the analyses allocate
//! most), it over-allocates by the alignment, so the block comes from the next size class's
//! pages: about a tenth of `check`'s instructions on a median module went to that path, and
//! more fresh pages were touched (docs/performance.md, "Allocation and memos").
//!
//! mimalloc hands out blocks of at least 16 bytes on 16-byte boundaries and smaller ones on
//! 8-byte boundaries (`alloc.c`'s assertion on `block_size < MI_MAX_ALIGN_SIZE`), so a layout
//! whose alignment is at most 16 and at most its size is served by `mi_malloc` itself; any
//! other goes to the aligned calls, as before.

use libmimalloc_sys as ffi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The alignment every mimalloc block of at least this many bytes has.
const PLAIN_ALIGN: usize = 16;

/// Whether a block of `size` bytes from the plain calls is aligned to `align`.
#[inline]
fn plain(size: usize, align: usize) -> bool {
    align <= PLAIN_ALIGN && align <= size
}

/// mimalloc as the global allocator ([module docs](self)).
pub struct Mi;

// SAFETY: every call forwards to mimalloc, which returns null on failure and blocks of at
// least the requested size, aligned as `plain` requires (or through the aligned calls);
// `mi_free` and `mi_realloc*` accept blocks from any of its allocation calls.
unsafe impl GlobalAlloc for Mi {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe {
            if plain(layout.size(), layout.align()) {
                ffi::mi_malloc(layout.size()) as *mut u8
            } else {
                ffi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe {
            if plain(layout.size(), layout.align()) {
                ffi::mi_zalloc(layout.size()) as *mut u8
            } else {
                ffi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        unsafe { ffi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe {
            if plain(new_size, layout.align()) {
                ffi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                ffi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every layout the plain calls serve comes back aligned, through allocation, zeroed
    /// allocation and growth; the others through the aligned calls.
    #[test]
    fn blocks_are_aligned_as_asked() {
        let a = Mi;
        for align in [1usize, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [
                1usize,
                7,
                8,
                12,
                16,
                24,
                40,
                48,
                72,
                100,
                4000,
                70_000,
                1 << 20,
            ] {
                let size = size.next_multiple_of(align);
                let layout = Layout::from_size_align(size, align).unwrap();
                unsafe {
                    let p = a.alloc(layout);
                    assert!(
                        !p.is_null() && (p as usize).is_multiple_of(align),
                        "{size} {align}"
                    );
                    p.write_bytes(0xab, size);
                    let q = a.realloc(p, layout, size * 3);
                    assert!(
                        !q.is_null() && (q as usize).is_multiple_of(align),
                        "{size} {align}"
                    );
                    assert_eq!(*q.add(size - 1), 0xab);
                    a.dealloc(q, Layout::from_size_align(size * 3, align).unwrap());
                    let z = a.alloc_zeroed(layout);
                    assert!(
                        !z.is_null() && (z as usize).is_multiple_of(align),
                        "{size} {align}"
                    );
                    assert!((0..size).all(|i| *z.add(i) == 0));
                    a.dealloc(z, layout);
                }
            }
        }
    }
}
