import ArgumentParser
import WXCore
import WXFeed

extension WX {
  struct Doctor: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Check the state folder and every store file; with --repair, salvage what can be saved.",
      discussion: """
        Checks the state folder (a private folder wx can write in), wx.lock, and reads every record \
        of every store, checking its checksum. --repair rebuilds a damaged store from every intact \
        record found in it, renames it over the damaged one (kept as FILE.broken-TIME: a repair \
        that fails leaves the damaged store in place) and says how many were lost; it puts back \
        swapped stores, never emptying them; a \
        catalogue with only its orders or index damaged is rebuilt from its records, one with a \
        damaged record is replaced by the bundled sample until the next `wx sync`. It also sets \
        aside a refused wx.lock, resets loose modes (0700 folder, 0600 files) and removes temp \
        files of interrupted writers. Exits 74 when something is wrong and not repaired.
        """)

    @Flag(help: "Repair damaged stores (keeping a backup of each).") var repair = false

    func execute(_ console: Console) async throws {
      let ctx = try Context.make(console)
      let report = try WXCore.Doctor(home: ctx.home).examine(repair: repair)
      var text = DoctorText(terminal: ctx.terminal)
      text.render(report, repair: repair)
      console.out(text.text)
      if report.folderUnusable || report.unrepaired > 0 || report.unhealthy > 0 && !repair {
        throw ExitCode(ExitStatus.ioError.rawValue)
      }
    }
  }
}

/// The lines `wx doctor` prints for a ``DoctorReport``.
struct DoctorText {
  let terminal: Terminal
  var text = ""
  /// The names' column: as wide as the longest name ("shared sample"), 12 at least.
  var width = 12

  /// Every line of `report`, its repairs under it, then the verdict.
  mutating func render(_ report: DoctorReport, repair: Bool) {
    width = max(12, report.lines.map { DisplayWidth.of($0.name) }.max() ?? 0)
    for line in report.lines {
      add(line.name, line.health, line.path)
      for action in line.actions {
        switch action {
        case .modeReset(let folder): repaired("mode set to \(folder ? "0700" : "0600")")
        case .setAside(let kept): repaired("set aside as \(Redact.path(kept))")
        case .repaired(let r) where r.unrepaired && r.remedy == .reinstall: note(r.note)
        case .repaired(let r) where r.unrepaired: note(r.note + "; move it away and run `wx doctor` again")
        case .repaired(let r):
          let counts =
            ": \(r.recovered) record\(r.recovered == 1 ? "" : "s") kept, \(r.lost) damaged record\(r.lost == 1 ? "" : "s") lost"
          // Where the damaged file is kept, before what to run: "replaced by the bundled
          // sample; run `wx sync` as …" read as if the sync ran as the file (a helper's pass).
          let kept = r.backup.map { r.setAside ? " as \(Redact.path($0))" : "; damaged file kept as \(Redact.path($0))" }
          repaired(r.note + (r.salvaged ? counts : "") + (kept ?? "") + r.remedy.words)
        }
      }
    }
    if report.folderUnusable {
      // Nothing in it can be repaired (a read-only one's stores are checked, above): say
      // what is wrong and stop.
      text += "fix the state folder (or set WX_HOME) and run `wx doctor` again"
      return
    }
    if report.temps > 0 {
      self.line(
        "temp files",
        repair
          ? "removed \(report.removedTemps ?? report.temps) left by interrupted writers"
          : "\(report.temps) left by an interrupted (or running) writer; the next writer or `wx doctor --repair` removes them")
    }
    // What ships with wx is restored by installing it again, not by a repair.
    let shipped = report.lines.filter {
      if case .broken(let e) = $0.health { return e.remedy == .reinstall } else { return false }
    }
    if !shipped.isEmpty && shipped.count == report.unhealthy {
      text += "what ships with wx is damaged: install wx again (`make install`), or set WX_DATA_DIR to intact data"
    } else if report.unrepaired > 0 {
      text += "\(report.unrepaired) store\(report.unrepaired == 1 ? "" : "s") not repaired"
    } else {
      text += report.unhealthy > 0 && !repair ? "run `wx doctor --repair` to repair" : "all stores healthy"
    }
  }

  mutating func line(_ name: String, _ what: String) {
    text += DisplayWidth.pad(name, to: width) + " " + what + "\n"
  }

  /// One line for `health`; `path` (for the folder and lock) replaces the record count.
  mutating func add(_ name: String, _ health: Health, _ path: String? = nil) {
    let subject = path.map { Redact.path($0) + ": " } ?? ""
    switch health {
    case .absent: line(name, subject + "absent (created when first needed)")
    case .healthy(let n, let detail) where path == nil:
      line(name, "ok, \(n) record\(n == 1 ? "" : "s")\(detail.isEmpty ? "" : ", " + detail)")
    case .healthy: line(name, subject + "ok")
    case .exposed(_, let mode):
      line(
        name,
        subject
          + "\(terminal.paint("mode 0" + String(mode, radix: 8), "31")): others may \(mode & 0o022 != 0 ? "read or change" : "read") it"
          + " (wx keeps 0700 folders, 0600 files)")
    case .broken(let error):
      let label: String
      switch error {
      case .unusable: label = "unusable"
      case .wrongKind: label = "wrong kind"
      default: label = "damaged"
      }
      // "Run wx doctor (--repair)" is what the last line says once: not on every line.
      let remedy: Remedy? = error.remedy == .inspect || error.remedy == .repair ? nil : error.remedy
      line(name, "\(terminal.paint(label, "31")): \(error)\(remedy.words)")
    }
  }

  mutating func note(_ what: String) { text += String(repeating: " ", count: width + 1) + what + "\n" }

  mutating func repaired(_ what: String) { text += String(repeating: " ", count: width + 1) + "repaired: " + what + "\n" }
}
