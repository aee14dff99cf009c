use super::*;
use std::os::unix::fs::PermissionsExt;
use std::sync::atomic::AtomicUsize;

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Self {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "vai-fsutil-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn dir(&self) -> Dir {
        Dir::open(&self.0).unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn mode(path: &Path) -> u32 {
    fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn writes_replace_the_file_with_the_mode_asked_and_leave_nothing_beside_it() {
    let s = Scratch::new();
    let path = s.0.join("config.json");
    fs::write(&path, "old").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    write_atomic(&path, b"secret", PRIVATE_FILE).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "secret");
    assert_eq!(mode(&path), 0o600, "a 0644 file holding a key is replaced");
    write_atomic(&path, b"shared", 0o644).unwrap();
    assert_eq!(mode(&path), 0o644);
    assert_eq!(names(&s.0), ["config.json"]);
}

#[test]
fn a_symlink_at_the_target_is_replaced_not_written_through() {
    let s = Scratch::new();
    let elsewhere = s.0.join("elsewhere");
    let path = s.0.join("config.json");
    std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
    write_atomic(&path, b"secret", PRIVATE_FILE).unwrap();
    assert!(!elsewhere.exists());
    assert!(fs::symlink_metadata(&path).unwrap().is_file());
    assert_eq!(fs::read_to_string(&path).unwrap(), "secret");
}

#[test]
fn a_failed_write_leaves_the_target_and_no_temporary_file() {
    let s = Scratch::new();
    // Renaming a file over a non-empty directory fails.
    let path = s.0.join("taken");
    fs::create_dir_all(path.join("inside")).unwrap();
    assert!(write_atomic(&path, b"secret", PRIVATE_FILE).is_err());
    assert_eq!(names(&s.0), ["taken"]);
    assert!(write_atomic(&s.0.join("missing/dir/file"), b"x", PRIVATE_FILE).is_err());
}

#[test]
fn only_directories_vai_creates_are_made_private() {
    let s = Scratch::new();
    fs::set_permissions(&s.0, fs::Permissions::from_mode(0o755)).unwrap();
    let deep = s.0.join("a/b");
    create_private_dir_all(&deep).unwrap();
    assert_eq!(mode(&s.0), 0o755, "an existing directory keeps its mode");
    assert_eq!(mode(&s.0.join("a")), 0o700);
    assert_eq!(mode(&deep), 0o700);
    create_private_dir_all(&deep).unwrap();
}

#[test]
fn temporary_names_do_not_repeat() {
    let names: std::collections::HashSet<u64> = (0..1000).map(|_| unique()).collect();
    assert_eq!(names.len(), 1000);
}

#[test]
fn a_user_link_is_neither_read_nor_written_through_and_files_keep_their_mode() {
    let s = Scratch::new();
    let dir = s.dir();
    fs::write(s.0.join("target.txt"), "keep").unwrap();
    std::os::unix::fs::symlink(s.0.join("target.txt"), s.0.join("l.json")).unwrap();
    assert!(matches!(
        dir.read("l.json", 100).unwrap_err(),
        FileError::NotAFile { .. }
    ));
    let refused = dir.write("l.json", b"x", FileMode::KeepOrPrivate, OverLink::Refuse);
    assert!(matches!(refused.unwrap_err(), FileError::NotAFile { .. }));
    assert_eq!(fs::read_to_string(s.0.join("target.txt")).unwrap(), "keep");

    dir.write("new.json", b"1", FileMode::KeepOrPrivate, OverLink::Refuse)
        .unwrap();
    assert_eq!(mode(&s.0.join("new.json")), 0o600);
    fs::set_permissions(s.0.join("new.json"), fs::Permissions::from_mode(0o644)).unwrap();
    dir.write("new.json", b"2", FileMode::KeepOrPrivate, OverLink::Refuse)
        .unwrap();
    assert_eq!(mode(&s.0.join("new.json")), 0o644);
    assert_eq!(dir.read("new.json", 100).unwrap().unwrap(), b"2");
    assert_eq!(dir.read("missing.json", 100).unwrap(), None);
    assert_eq!(names(&s.0), ["l.json", "new.json", "target.txt"]);
}

#[test]
fn names_are_names_never_paths() {
    let s = Scratch::new();
    let dir = s.dir();
    for bad in ["", ".", "..", "../x", "a/b", "/etc/passwd", "a\0b"] {
        assert!(
            matches!(dir.read(bad, 10), Err(FileError::NotAName { .. })),
            "{bad:?}"
        );
        assert!(matches!(
            dir.write(bad, b"x", FileMode::KeepOrPrivate, OverLink::Refuse),
            Err(FileError::NotAName { .. })
        ));
        assert!(matches!(
            dir.sub(bad, Some(0o755)),
            Err(FileError::NotAName { .. })
        ));
    }
}

#[test]
fn reads_are_bounded_and_refuse_fifos_and_devices_without_blocking() {
    let s = Scratch::new();
    let dir = s.dir();
    fs::write(s.0.join("big"), vec![b'x'; 101]).unwrap();
    assert!(matches!(
        dir.read("big", 100).unwrap_err(),
        FileError::TooLarge { bytes: 101, .. }
    ));
    rustix::fs::mknodat(
        rustix::fs::CWD,
        s.0.join("fifo"),
        FileType::Fifo,
        Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
    // Opening a FIFO for reading would wait for a writer; it is refused at once instead.
    assert!(matches!(
        dir.read("fifo", 100).unwrap_err(),
        FileError::NotAFile { .. }
    ));
    assert!(matches!(
        read_user_file(&s.0.join("fifo"), 100).unwrap_err(),
        FileError::NotAFile { .. }
    ));
    assert!(matches!(
        read_user_file(Path::new("/dev/zero"), 1 << 20).unwrap_err(),
        FileError::NotAFile { .. }
    ));
    assert_eq!(read_user_file(&s.0.join("big"), 1000).unwrap().len(), 101);
}

/// The handle follows the directory it opened: a subdirectory swapped for a link after it was
/// opened does not send a write through the link.
#[test]
fn a_subdirectory_swapped_for_a_link_after_opening_is_not_followed() {
    let s = Scratch::new();
    let outside = Scratch::new();
    let dir = s.dir();
    let tests = dir.sub("tests", Some(0o755)).unwrap();
    std::os::unix::fs::symlink(&outside.0, s.0.join("link")).unwrap();
    rustix::fs::renameat_with(
        rustix::fs::CWD,
        s.0.join("tests"),
        rustix::fs::CWD,
        s.0.join("link"),
        rustix::fs::RenameFlags::EXCHANGE,
    )
    .unwrap();
    tests
        .write(
            "case.json",
            b"{}",
            FileMode::KeepOrPrivate,
            OverLink::Refuse,
        )
        .unwrap();
    assert!(
        names(&outside.0).is_empty(),
        "nothing went through the link"
    );
    // The directory the handle opened, now named `link`, holds the file.
    assert_eq!(names(&s.0.join("link")), ["case.json"]);
    // And opening `tests` again, now a link, is refused.
    assert!(matches!(
        dir.sub("tests", Some(0o755)).unwrap_err(),
        FileError::NotADirectory { .. }
    ));
}

#[test]
fn entries_are_listed_as_lstat_sees_them() {
    let s = Scratch::new();
    fs::write(s.0.join("a.json"), "12").unwrap();
    fs::create_dir(s.0.join("d")).unwrap();
    std::os::unix::fs::symlink(s.0.join("a.json"), s.0.join("l.json")).unwrap();
    let mut entries = s.dir().entries().unwrap();
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    let seen: Vec<(&str, bool)> = entries.iter().map(|e| (&*e.name, e.is_file)).collect();
    assert_eq!(seen, [("a.json", true), ("d", false), ("l.json", false)]);
    assert_eq!(entries[0].len, 2);
    assert!(entries[0].modified.is_some());
}

#[test]
fn link_never_replaces_and_remove_takes_the_name_only() {
    let s = Scratch::new();
    let dir = s.dir();
    fs::write(s.0.join("a"), "A").unwrap();
    fs::write(s.0.join("b"), "B").unwrap();
    assert!(dir.link("a", "b").is_err());
    dir.link("a", "c").unwrap();
    dir.remove("a").unwrap();
    assert_eq!(names(&s.0), ["b", "c"]);
    assert_eq!(fs::read_to_string(s.0.join("c")).unwrap(), "A");
}
