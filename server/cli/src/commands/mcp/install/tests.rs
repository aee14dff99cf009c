//! `vai mcp install` against scratch directories: each client's file, merging, backups, modes.

use super::error::InstallError;
use super::file::merge;
use super::*;
use clap::{CommandFactory, Parser};
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

const EXE: &str = "/opt/vai/bin/vai";

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("vai-mcp-install-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn places(&self) -> Places {
        Places {
            home: Some(self.0.join("home")),
            app_data: Some(self.0.join("appdata")),
            cwd: self.0.join("project"),
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// `vai mcp install` parsed as from the command line.
#[derive(Debug, Parser)]
struct Cli {
    #[command(flatten)]
    args: InstallArgs,
}

fn parse(line: &[&str]) -> InstallArgs {
    Cli::try_parse_from(["install"].iter().chain(line))
        .unwrap()
        .args
}

/// Runs the command with `--config <file>`; returns the exit code, stdout and stderr.
fn install_at(scratch: &Scratch, file: &Path, line: &[&str]) -> (u8, String, String) {
    let mut line = line.to_vec();
    let file = file.to_str().unwrap();
    line.extend(["--config", file]);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = install(
        &parse(&line),
        Path::new(EXE),
        &scratch.places(),
        &mut out,
        &mut err,
    )
    .unwrap();
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

fn backups(path: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".bak"))
        .collect();
    names.sort();
    names
}

#[test]
fn the_help_and_the_arguments_parse() {
    Cli::command().debug_assert();
    assert_eq!(parse(&["claude-desktop"]).target, Target::Claude);
    assert_eq!(parse(&["vscode", "--project"]).target, Target::Vscode);
    assert!(Cli::try_parse_from(["install", "cursor", "--project", "--config", "x"]).is_err());
}

#[test]
fn each_client_has_its_own_file() {
    let scratch = Scratch::new();
    let places = scratch.places();
    let file = |line: &[&str]| plan(&parse(line), Path::new(EXE), &places).map(|p| p.file);
    let (home, app, cwd) = (
        scratch.0.join("home"),
        scratch.0.join("appdata"),
        scratch.0.join("project"),
    );
    assert_eq!(
        file(&["claude"]).unwrap(),
        app.join("Claude/claude_desktop_config.json")
    );
    assert_eq!(file(&["claude-code"]).unwrap(), home.join(".claude.json"));
    assert_eq!(
        file(&["claude-code", "--project"]).unwrap(),
        cwd.join(".mcp.json")
    );
    assert_eq!(file(&["cursor"]).unwrap(), home.join(".cursor/mcp.json"));
    assert_eq!(
        file(&["cursor", "--project"]).unwrap(),
        cwd.join(".cursor/mcp.json")
    );
    assert_eq!(file(&["vscode"]).unwrap(), app.join("Code/User/mcp.json"));
    assert_eq!(
        file(&["vscode", "--project"]).unwrap(),
        cwd.join(".vscode/mcp.json")
    );
    assert_eq!(
        file(&["windsurf"]).unwrap(),
        home.join(".codeium/windsurf/mcp_config.json")
    );
    for target in ["claude", "windsurf"] {
        let refused = file(&[target, "--project"]).unwrap_err();
        assert!(
            matches!(refused, InstallError::NoProjectFile(_)),
            "{target}"
        );
    }
}

#[test]
fn without_write_it_only_prints() {
    let scratch = Scratch::new();
    let file = scratch.0.join("claude_desktop_config.json");
    let (code, out, _) = install_at(&scratch, &file, &["claude", "--read-only"]);
    assert_eq!(code, EXIT_OK);
    assert!(!file.exists());
    assert!(out.contains(&file.display().to_string()), "{out}");
    assert!(
        out.contains(r#""args": ["#) && out.contains("\"--read-only\""),
        "{out}"
    );
    assert!(
        out.contains("vai mcp install claude --read-only --config"),
        "{out}"
    );
}

#[test]
fn a_new_file_is_created_with_its_directories() {
    let scratch = Scratch::new();
    let file = scratch.0.join("new/dir/mcp.json");
    let (code, out, _) = install_at(&scratch, &file, &["cursor", "--write"]);
    assert_eq!(code, EXIT_OK);
    assert!(out.contains("Created"), "{out}");
    assert_eq!(
        read_json(&file),
        json!({"mcpServers": {"vai": {"command": EXE, "args": ["mcp"]}}})
    );
    assert!(backups(&file).is_empty());
}

#[test]
fn other_settings_and_servers_are_kept_in_order_and_the_old_file_backed_up() {
    let scratch = Scratch::new();
    let file = scratch.0.join(".claude.json");
    let old = r#"{"theme":"dark","mcpServers":{"other":{"command":"x","env":{"K":"v"}}},"zeta":1}"#;
    fs::write(&file, old).unwrap();
    let (code, out, _) = install_at(&scratch, &file, &["claude-code", "--write"]);
    assert_eq!(code, EXIT_OK);
    assert!(
        out.contains("Added") && out.contains(".claude.json.bak"),
        "{out}"
    );
    let new = read_json(&file);
    let keys: Vec<&String> = new.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["theme", "mcpServers", "zeta"]);
    let servers: Vec<&String> = new["mcpServers"].as_object().unwrap().keys().collect();
    assert_eq!(servers, ["other", "vai"]);
    assert_eq!(
        new["mcpServers"]["other"],
        json!({"command": "x", "env": {"K": "v"}})
    );
    assert_eq!(new["mcpServers"]["vai"]["type"], "stdio");
    assert_eq!(
        fs::read_to_string(scratch.0.join(".claude.json.bak")).unwrap(),
        old
    );
}

#[test]
fn a_different_entry_is_replaced_in_place_and_earlier_backups_are_kept() {
    let scratch = Scratch::new();
    let file = scratch.0.join("mcp_config.json");
    let old = r#"{"mcpServers":{"vai":{"command":"/old/vai","args":["mcp"]},"b":{}}}"#;
    fs::write(&file, old).unwrap();
    fs::write(scratch.0.join("mcp_config.json.bak"), "mine").unwrap();
    let (code, out, _) = install_at(&scratch, &file, &["windsurf", "--write", "--read-only"]);
    assert_eq!(code, EXIT_OK);
    assert!(out.contains("Updated"), "{out}");
    let new = read_json(&file);
    let servers: Vec<&String> = new["mcpServers"].as_object().unwrap().keys().collect();
    assert_eq!(servers, ["vai", "b"]);
    assert_eq!(
        new["mcpServers"]["vai"],
        json!({"command": EXE, "args": ["mcp", "--read-only"]})
    );
    assert_eq!(
        backups(&file),
        ["mcp_config.json.bak", "mcp_config.json.bak.1"]
    );
    assert_eq!(
        fs::read_to_string(scratch.0.join("mcp_config.json.bak")).unwrap(),
        "mine"
    );
    assert_eq!(
        fs::read_to_string(scratch.0.join("mcp_config.json.bak.1")).unwrap(),
        old
    );
}

#[test]
fn an_earlier_entry_keeps_its_own_fields_but_not_another_transport() {
    let mut doc = serde_json::from_str(
        r#"{"servers": {"vai": {"type": "http", "url": "http://127.0.0.1:3100/mcp", "env": {"K": "v"}}}}"#,
    )
    .unwrap();
    let entry = Target::Vscode.entry(EXE, false);
    let change = merge(&mut doc, "servers", &entry).unwrap();
    assert!(matches!(change, Change::Replace { .. }));
    assert_eq!(
        doc["servers"]["vai"],
        json!({"env": {"K": "v"}, "type": "stdio", "command": EXE, "args": ["mcp"]})
    );
    assert_eq!(merge(&mut doc, "servers", &entry), Some(Change::Same));
}

#[test]
fn an_identical_entry_changes_nothing() {
    let scratch = Scratch::new();
    let file = scratch.0.join("mcp.json");
    let old = format!(r#"{{"mcpServers": {{"vai": {{"args": ["mcp"], "command": "{EXE}"}}}}}}"#);
    fs::write(&file, &old).unwrap();
    let (code, out, _) = install_at(&scratch, &file, &["cursor", "--write"]);
    assert_eq!(code, EXIT_OK);
    assert!(out.contains("already has this entry"), "{out}");
    assert_eq!(fs::read_to_string(&file).unwrap(), old);
    assert!(backups(&file).is_empty());
}

#[test]
fn a_file_that_is_not_a_json_object_is_refused_and_left_alone() {
    let scratch = Scratch::new();
    let file = scratch.0.join("mcp.json");
    for old in [
        "{\n  // a comment\n  \"servers\": {}\n}",
        "[]",
        r#"{"servers": []}"#,
    ] {
        fs::write(&file, old).unwrap();
        let (code, out, err) = install_at(&scratch, &file, &["vscode", "--write"]);
        assert_eq!(code, EXIT_INVALID, "{old}");
        assert!(err.contains(&file.display().to_string()), "{err}");
        assert!(out.contains("Add this entry by hand"), "{out}");
        assert_eq!(fs::read_to_string(&file).unwrap(), old);
        assert!(backups(&file).is_empty());
    }
}

#[test]
fn vscode_uses_servers_and_type_stdio() {
    let scratch = Scratch::new();
    let file = scratch.0.join(".vscode/mcp.json");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, r#"{"inputs": [], "servers": {}}"#).unwrap();
    let (code, _, _) = install_at(&scratch, &file, &["vscode", "--write"]);
    assert_eq!(code, EXIT_OK);
    assert_eq!(
        read_json(&file),
        json!({"inputs": [], "servers": {"vai": {"type": "stdio", "command": EXE, "args": ["mcp"]}}})
    );
}

#[cfg(unix)]
#[test]
fn modes_are_kept_and_links_followed() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = Scratch::new();
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let new = scratch.0.join("new.json");
    install_at(&scratch, &new, &["cursor", "--write"]);
    assert_eq!(mode(&new), 0o600, "a new user-level file is private");

    let real = scratch.0.join("dotfiles.json");
    fs::write(&real, "{}").unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
    let link = scratch.0.join("link.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    install_at(&scratch, &link, &["cursor", "--write"]);
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(read_json(&real)["mcpServers"]["vai"]["command"], EXE);
    assert_eq!(mode(&real), 0o640);
}

#[test]
fn shell_words_are_quoted_when_needed() {
    assert_eq!(shell_quote("/usr/bin/vai"), "/usr/bin/vai");
    if cfg!(unix) {
        assert_eq!(shell_quote("/Apps/My vai/vai"), "'/Apps/My vai/vai'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}

/// A "configuration file" that is a device or a FIFO is refused at once: `/dev/zero` would be
/// read until memory ran out, and a FIFO would wait for a writer for ever.
#[test]
fn devices_fifos_and_huge_files_are_refused_without_reading_them() {
    let scratch = Scratch::new();
    let fifo = scratch.0.join("fifo.json");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
    let huge = scratch.0.join("huge.json");
    fs::write(&huge, vec![b' '; 1024 * 1024 + 1]).unwrap();
    for file in [Path::new("/dev/zero"), &fifo, &huge] {
        let (code, out, err) = install_at(&scratch, file, &["cursor", "--write"]);
        assert_eq!(code, EXIT_INVALID, "{}: {err}", file.display());
        assert!(
            err.contains("is not a regular file") || err.contains("limited to 1048576 bytes"),
            "{}: {err}",
            file.display()
        );
        assert!(err.contains("it was left as it is"), "{err}");
        assert!(out.contains("Add this entry by hand"), "{out}");
    }
    assert_eq!(fs::metadata(&huge).unwrap().len(), 1024 * 1024 + 1);
}
