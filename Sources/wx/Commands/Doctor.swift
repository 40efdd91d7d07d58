import ArgumentParser
import WXCore

extension WX {
  struct Doctor: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Check every store file; with --repair, salvage what can be saved.",
      discussion: """
        Reads every record of every store and checks its checksum. --repair keeps a damaged file as \
        FILE.broken-TIME, rebuilds the store from what GDBM can recover, and says what was lost; \
        a damaged catalogue is replaced by the bundled sample until the next `wx sync`. \
        Exits 74 when a store is damaged and not repaired.
        """)

    @Flag(help: "Repair damaged stores (keeping a backup of each).") var repair = false

    func execute() async throws {
      let ctx = try Context.make()
      let doctor = WXCore.Doctor(home: ctx.home)
      var report = ""
      var unhealthy = 0
      let lock: WriterLock? = repair ? try { try ctx.home.prepare(); return try ctx.home.writers.acquire() }() : nil
      defer { lock?.release() }

      func line(_ name: String, _ health: Health) -> String {
        let label = DisplayWidth.pad(name, to: 12)
        switch health {
        case .absent: return "\(label) absent (created when first needed)"
        case .healthy(let n, let detail):
          return "\(label) ok, \(n) record\(n == 1 ? "" : "s")\(detail.isEmpty ? "" : ", " + detail)"
        case .broken(let error): return "\(label) \(ctx.terminal.paint("damaged", "31")): \(error)"
        }
      }

      let catalogueHealth = doctor.checkCatalogue()
      report += line("catalogue", catalogueHealth) + "\n"
      if case .broken = catalogueHealth {
        if repair {
          let r = try doctor.repairCatalogue()
          report += "             repaired: \(r.note)\(r.backup.map { "; damaged file kept as \($0)" } ?? "")\n"
        } else {
          unhealthy += 1
        }
      }
      for store in doctor.smallStores {
        let health = doctor.check(path: store.path, kind: store.kind)
        report += line(store.name, health) + "\n"
        guard case .broken = health else { continue }
        if repair {
          let r = try doctor.repair(path: store.path, kind: store.kind)
          report += "             repaired: \(r.note): \(r.recovered) record\(r.recovered == 1 ? "" : "s") kept, \(r.lost) lost"
          report += (r.backup.map { "; damaged file kept as \($0)" } ?? "") + "\n"
        } else {
          unhealthy += 1
        }
      }
      Terminal.out(report + (unhealthy > 0 ? "run `wx doctor --repair` to repair" : "all stores healthy"))
      if unhealthy > 0 { throw ExitCode(ExitStatus.ioError.rawValue) }
    }
  }
}
