//! The real-world PTX modules are committed as one archive, `validation/realworld/ptx.tar.gz`
//! (about 3 MB for 24 MiB of PTX), and unpacked on first use into `validation/realworld/ptx/`,
//! which git ignores. The folder carries a stamp, `.packed`: the archive's CRC-32 and length
//! as `scripts/realworld/ptx_pack.py` writes them. A folder whose stamp matches the archive is
//! used as it is (so modules built by `scripts/realworld/build_ptx.sh` and not yet packed stay);
//! any other folder is replaced by a fresh unpacking.
//!
//! The working tree stays small that way: the GPU machine's copy of it is limited in size, and
//! each real-world set added about 3 MB of PTX.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The archive, relative to the repository root.
pub const ARCHIVE: &str = "validation/realworld/ptx.tar.gz";
/// The folder it unpacks into, relative to the repository root.
pub const FOLDER: &str = "validation/realworld/ptx";
/// The stamp file inside [`FOLDER`].
pub const STAMP: &str = ".packed";

/// The stamp of an archive: its CRC-32 (as `zlib.crc32`) and its length in bytes.
pub fn stamp(archive: &[u8]) -> String {
    format!("{:08x} {}\n", crc32fast::hash(archive), archive.len())
}

/// `validation/realworld/ptx` under `root`, unpacked from the archive if it is missing or was
/// unpacked from another archive. Safe to call from several threads and processes at once:
/// each unpacks into a folder of its own and renames it into place.
pub fn ptx_dir(root: &Path) -> Result<PathBuf, String> {
    static LOCK: Mutex<()> = Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let archive = root.join(ARCHIVE);
    let dir = root.join(FOLDER);
    let bytes = fs::read(&archive).map_err(|e| format!("{ARCHIVE}: {e}"))?;
    let want = stamp(&bytes);
    if current(&dir, &want) {
        return Ok(dir);
    }
    let parent = dir.parent().unwrap_or(root);
    let tag = format!("{}-{:?}", std::process::id(), std::thread::current().id());
    let tag: String = tag.chars().filter(char::is_ascii_alphanumeric).collect();
    let fresh = parent.join(format!(".ptx-unpack-{tag}"));
    let _ = fs::remove_dir_all(&fresh);
    unpack(&bytes, &fresh).map_err(|e| format!("{ARCHIVE}: unpacking: {e}"))?;
    fs::write(fresh.join(STAMP), &want).map_err(|e| format!("{}: {e}", fresh.display()))?;
    // Another process may have put the same archive's modules in place meanwhile.
    if current(&dir, &want) {
        let _ = fs::remove_dir_all(&fresh);
        return Ok(dir);
    }
    let old = parent.join(format!(".ptx-old-{tag}"));
    if dir.exists() {
        fs::rename(&dir, &old).map_err(|e| format!("{FOLDER}: {e}"))?;
    }
    let placed = fs::rename(&fresh, &dir);
    let _ = fs::remove_dir_all(&old);
    match placed {
        Ok(()) => Ok(dir),
        Err(_) if current(&dir, &want) => {
            let _ = fs::remove_dir_all(&fresh);
            Ok(dir)
        }
        Err(e) => Err(format!("{FOLDER}: {e}")),
    }
}

fn current(dir: &Path, want: &str) -> bool {
    fs::read_to_string(dir.join(STAMP)).is_ok_and(|s| s == want)
}

/// Unpacks the plain files of a gzip'd tar into `into` (created), refusing any entry that is
/// not a plain file named by one path component.
fn unpack(gz: &[u8], into: &Path) -> io::Result<()> {
    fs::create_dir_all(into)?;
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(gz));
    for entry in tar.entries()? {
        let mut entry = entry?;
        let path = entry.path()?.into_owned();
        let name = match (path.components().count(), path.file_name()) {
            (1, Some(n)) if entry.header().entry_type().is_file() => n.to_owned(),
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("unexpected entry {}", path.display()),
                ));
            }
        };
        let mut out = fs::File::create(into.join(name))?;
        io::copy(&mut entry, &mut out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive(files: &[(&str, &str)]) -> Vec<u8> {
        let mut b = tar::Builder::new(flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::fast(),
        ));
        for (n, text) in files {
            let mut h = tar::Header::new_gnu();
            h.set_size(text.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            b.append_data(&mut h, n, text.as_bytes()).unwrap();
        }
        b.into_inner().unwrap().finish().unwrap()
    }

    fn root(name: &str) -> PathBuf {
        let r =
            std::env::temp_dir().join(format!("warpscope-packed-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&r);
        fs::create_dir_all(r.join("validation/realworld")).unwrap();
        r
    }

    #[test]
    fn unpacks_once_and_again_when_the_archive_changes() {
        let r = root("change");
        fs::write(r.join(ARCHIVE), archive(&[("a.ptx", "A1")])).unwrap();
        let d = ptx_dir(&r).unwrap();
        assert_eq!(fs::read_to_string(d.join("a.ptx")).unwrap(), "A1");
        // A module built but not packed yet stays while the archive is the same.
        fs::write(d.join("new.ptx"), "N").unwrap();
        ptx_dir(&r).unwrap();
        assert!(d.join("new.ptx").exists());
        // A new archive replaces the folder.
        fs::write(r.join(ARCHIVE), archive(&[("a.ptx", "A2"), ("b.ptx", "B")])).unwrap();
        ptx_dir(&r).unwrap();
        assert_eq!(fs::read_to_string(d.join("a.ptx")).unwrap(), "A2");
        assert!(d.join("b.ptx").exists() && !d.join("new.ptx").exists());
        fs::remove_dir_all(&r).unwrap();
    }

    #[test]
    fn a_missing_archive_or_an_entry_with_a_folder_is_an_error() {
        let r = root("bad");
        assert!(ptx_dir(&r).unwrap_err().contains("ptx.tar.gz"));
        fs::write(r.join(ARCHIVE), archive(&[("sub/a.ptx", "A")])).unwrap();
        assert!(
            ptx_dir(&r)
                .unwrap_err()
                .contains("unexpected entry sub/a.ptx")
        );
        fs::remove_dir_all(&r).unwrap();
    }

    #[test]
    fn the_stamp_is_zlibs_crc32_and_the_length() {
        // zlib.crc32(b"123456789") == 0xcbf43926, the CRC-32 check value.
        assert_eq!(stamp(b"123456789"), "cbf43926 9\n");
    }
}
