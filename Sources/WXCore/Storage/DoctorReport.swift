/// What `wx doctor` found and did, as values: one line per thing checked (the state folder,
/// the lock, the catalogue, each small store), what a repair did to it, and the temp files of
/// killed writers. The CLI renders it; the flow that fills it is ``Doctor/examine(repair:)``.
package struct DoctorReport: Equatable, Sendable {
  /// One thing checked.
  package struct Line: Equatable, Sendable {
    /// "state folder", "lock", "catalogue", "preferences"…
    package var name: String
    /// Shown in place of a record count (the folder's and the lock's paths).
    package var path: String?
    package var health: Health
    /// What the repair did; empty without `--repair` or when nothing was wrong.
    package var actions: [Action] = []
  }

  /// What a repair did to one thing.
  package enum Action: Equatable, Sendable {
    /// Its mode was set back to 0700 (a folder) or 0600 (a file).
    case modeReset(folder: Bool)
    /// A refused lock file was set aside under this name.
    case setAside(String)
    /// A store was rebuilt, put back or left as it was (``Doctor/Repair/unrepaired``).
    case repaired(Doctor.Repair)
  }

  package var lines: [Line] = []
  /// The state folder cannot be used: nothing else was checked.
  package var folderUnusable = false
  /// Temp files left by killed writers (found before the lock was taken).
  package var temps = 0
  /// With `--repair`, how many of them the lock's holder removed.
  package var removedTemps: Int?

  /// Lines that need a repair.
  package var unhealthy: Int {
    lines.filter {
      switch $0.health {
      case .broken, .exposed: return true
      case .absent, .healthy: return false
      }
    }.count
  }

  /// Stores a repair left as they were.
  package var unrepaired: Int {
    lines.filter { $0.actions.contains { if case .repaired(let r) = $0 { return r.unrepaired } else { return false } } }.count
  }
}

extension Doctor {
  /// Checks the state folder, the lock, the catalogue and every small store, and with
  /// `repair` repairs what is wrong under the writer lock (one held for the whole run).
  /// Throws when a repair itself fails (the store is then left as it was).
  package func examine(repair asked: Bool) throws -> DoctorReport {
    var report = DoctorReport()
    var repair = asked
    let folder = checkFolder()
    report.lines.append(.init(name: "state folder", path: home.directory, health: folder))
    if case .broken(let e) = folder {
      report.folderUnusable = true
      // A folder wx may read but not write (a read-only mount): its stores are checked all
      // the same, since a damaged one is what every command there reports, though none can
      // be repaired here. Any other unusable folder: nothing in it is looked at.
      guard e.remedy == .useAWritableFolder, FileSystem.isDirectory(home.directory) else { return report }
      repair = false
    }
    if case .exposed = folder, repair {
      try tighten(home.directory, folder: true)
      report.lines[0].actions.append(.modeReset(folder: true))
    }
    let lockHealth = checkLock()
    report.lines.append(.init(name: "lock", path: home.lockPath, health: lockHealth))
    if repair, case .broken = lockHealth, let kept = try repairLock() {
      report.lines[1].actions.append(.setAside(kept))
    }
    report.temps = temps().count
    let lock: WriterLock? = repair ? try home.writers.acquire() : nil
    defer { lock?.release() }
    report.removedTemps = lock?.removedTemps

    let catalogueHealth = checkCatalogue()
    var catalogue = DoctorReport.Line(name: "catalogue", health: catalogueHealth)
    if let lock {
      if case .broken = catalogueHealth {
        catalogue.actions.append(.repaired(try repairCatalogue(holding: lock)))
      } else if case .exposed = catalogueHealth {
        try tighten(home.cataloguePath)
        catalogue.actions.append(.modeReset(folder: false))
      }
    }
    report.lines.append(catalogue)
    // The atlas: derived data, so a repair rebuilds it from the shipped file.
    let atlasHealth = checkAtlas()
    var atlas = DoctorReport.Line(name: "atlas", health: atlasHealth)
    if let lock {
      if case .broken = atlasHealth {
        atlas.actions.append(.repaired(try repairAtlas(holding: lock)))
      } else if case .exposed = atlasHealth {
        try tighten(home.atlasPath)
        atlas.actions.append(.modeReset(folder: false))
      }
    }
    report.lines.append(atlas)
    for store in smallStores {
      let health = check(store)
      var line = DoctorReport.Line(name: store.name, health: health)
      if let lock {
        if case .exposed = health {
          try tighten(store.path)
          line.actions.append(.modeReset(folder: false))
        } else if case .broken = health {
          line.actions.append(.repaired(try self.repair(store, holding: lock)))
        }
      }
      report.lines.append(line)
    }
    // What ships with wx: checked, never repaired here (a repair of the state folder cannot
    // restore it); the line says what does.
    for (name, path, health) in checkShippedData() {
      var line = DoctorReport.Line(name: name, path: path, health: health)
      if repair, case .broken = health {
        line.actions.append(
          .repaired(Repair(recovered: 0, lost: 0, backup: nil, note: "not repaired here", remedy: .reinstall, unrepaired: true)))
      }
      report.lines.append(line)
    }
    return report
  }
}
