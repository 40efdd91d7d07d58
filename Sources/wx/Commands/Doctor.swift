import ArgumentParser
import WXCore

extension WX {
  struct Doctor: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Check the state folder and every store file; with --repair, salvage what can be saved.",
      discussion: """
        Checks the state folder (a private folder wx can write in), wx.lock, and reads every record \
        of every store, checking its checksum. --repair keeps a damaged file as FILE.broken-TIME, \
        rebuilds the store from every intact record found in it and says how many were lost; a \
        catalogue with only its orders or index damaged is rebuilt from its records, one with a \
        damaged record is replaced by the bundled sample until the next `wx sync`. It also sets \
        aside a refused wx.lock, resets loose modes (0700 folder, 0600 files) and removes temp \
        files of interrupted writers. Exits 74 when something is wrong and not repaired.
        """)

    @Flag(help: "Repair damaged stores (keeping a backup of each).") var repair = false

    func execute() async throws {
      let ctx = try Context.make()
      let doctor = WXCore.Doctor(home: ctx.home)
      var report = DoctorReport(terminal: ctx.terminal)

      let folder = doctor.checkFolder()
      report.add("state folder", folder, ctx.home.directory)
      if case .broken = folder {
        // Nothing in it can be checked or repaired: say what is wrong and stop.
        Terminal.out(report.text + "fix the state folder (or set WX_HOME) and run `wx doctor` again")
        throw ExitCode(ExitStatus.ioError.rawValue)
      }
      if case .exposed = folder, repair {
        try doctor.tighten(ctx.home.directory, folder: true)
        report.repaired("mode set to 0700")
      }
      let lockHealth = doctor.checkLock()
      report.add("lock", lockHealth, ctx.home.lockPath)
      if repair, case .broken = lockHealth, let kept = try doctor.repairLock() {
        report.repaired("set aside as \(kept)")
      }
      let temps = doctor.temps()
      let lock: WriterLock? = repair ? try ctx.home.writers.acquire() : nil
      defer { lock?.release() }

      let catalogueHealth = doctor.checkCatalogue()
      report.add("catalogue", catalogueHealth)
      if let lock {
        if case .broken = catalogueHealth {
          let r = try doctor.repairCatalogue(holding: lock)
          report.repaired("\(r.note)\(r.remedy.words)\(r.backup.map { "; damaged file kept as \($0)" } ?? "")")
        } else if case .exposed = catalogueHealth {
          try doctor.tighten(ctx.home.cataloguePath)
          report.repaired("mode set to 0600")
        }
      }
      try Self.atlas(doctor, lock, &report)
      for store in doctor.smallStores {
        let health = doctor.check(path: store.path, kind: store.kind)
        report.add(store.name, health)
        guard let lock else { continue }
        if case .exposed = health {
          try doctor.tighten(store.path)
          report.repaired("mode set to 0600")
        } else if case .broken = health {
          let r = try doctor.repair(store, holding: lock)
          report.repaired(
            "\(r.note): \(r.recovered) record\(r.recovered == 1 ? "" : "s") kept, \(r.lost) damaged record\(r.lost == 1 ? "" : "s") lost"
              + (r.backup.map { "; damaged file kept as \($0)" } ?? ""))
        }
      }
      if !temps.isEmpty {
        let n = temps.count
        report.line(
          "temp files", repair ? "removed \(lock?.removedTemps ?? n) left by interrupted writers"
            : "\(n) left by an interrupted (or running) writer; the next writer or `wx doctor --repair` removes them")
      }
      Terminal.out(report.text + (report.unhealthy > 0 && !repair ? "run `wx doctor --repair` to repair" : "all stores healthy"))
      if report.unhealthy > 0 && !repair { throw ExitCode(ExitStatus.ioError.rawValue) }
    }
  }
}

extension WX.Doctor {
  /// The atlas's line, and its repair: rebuilt from the shipped data (it is derived data).
  static func atlas(_ doctor: WXCore.Doctor, _ lock: WriterLock?, _ report: inout DoctorReport) throws {
    let health = doctor.checkAtlas()
    report.add("atlas", health)
    guard let lock else { return }
    if case .exposed = health {
      try doctor.tighten(doctor.home.atlasPath)
      report.repaired("mode set to 0600")
    } else if case .broken = health {
      let r = try doctor.repairAtlas(holding: lock)
      report.repaired(r.note + (r.backup.map { "; damaged file kept as \($0)" } ?? ""))
    }
  }
}

/// The lines `wx doctor` prints, and how many of them need a repair.
struct DoctorReport {
  let terminal: Terminal
  var text = ""
  var unhealthy = 0

  mutating func line(_ name: String, _ what: String) {
    text += DisplayWidth.pad(name, to: 12) + " " + what + "\n"
  }

  /// One line for `health`; `path` (for the folder and lock) replaces the record count.
  mutating func add(_ name: String, _ health: Health, _ path: String? = nil) {
    let subject = path.map { $0 + ": " } ?? ""
    switch health {
    case .absent: line(name, subject + "absent (created when first needed)")
    case .healthy(let n, let detail) where path == nil:
      line(name, "ok, \(n) record\(n == 1 ? "" : "s")\(detail.isEmpty ? "" : ", " + detail)")
    case .healthy: line(name, subject + "ok")
    case .exposed(_, let mode):
      unhealthy += 1
      line(name, subject + "\(terminal.paint("mode 0" + String(mode, radix: 8), "31")): others may read it (wx keeps 0700 folders, 0600 files)")
    case .broken(let error):
      unhealthy += 1
      let label: String
      if case .unusable = error { label = "unusable" } else { label = "damaged" }
      // "Run wx doctor (--repair)" is what the last line says once: not on every line.
      let remedy: Remedy? = error.remedy == .inspect || error.remedy == .repair ? nil : error.remedy
      line(name, "\(terminal.paint(label, "31")): \(error)\(remedy.words)")
    }
  }

  mutating func repaired(_ what: String) { text += String(repeating: " ", count: 13) + "repaired: " + what + "\n" }
}
