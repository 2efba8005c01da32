import Platform
import SignalK

/// What the History API and playback read of the history on the card.
extension HistoryStore {
    /// Each intact block between two times (UNIX seconds), this boat's and the vessels', the minute under way last.
    func visit(from: Double, to: Double, _ body: (HistoryBlock.Decoded) -> Void) {
        let firstDay = Self.name(minute: Int64((from / 60).rounded(.down))).prefix(10)
        let lastDay = Self.name(minute: Int64((to / 60).rounded(.down))).prefix(10)
        func wanted(_ minute: Int64) -> Bool { Double(minute) * 60 + 60 > from && Double(minute) * 60 <= to }
        for (name, _) in files() where name.prefix(10) >= firstDay && name.prefix(10) <= lastDay {
            guard let bytes = try? POSIX.map(folder + "/" + name, limit: 256 << 20) else { continue }
            HistoryBlock.blocks(bytes, catalog: catalog) { decoded in
                if wanted(decoded.minute) { body(decoded) }
            }
            POSIX.unmap(bytes)
        }
        if let minute, wanted(minute.minute) {
            let bytes = minute.encode() + vesselBlocks(minute: minute.minute)
            bytes.withUnsafeBytes { raw in HistoryBlock.blocks(raw, catalog: catalog, body) }
        }
    }

    /// A History API query over the files, with the minute under way; `context` is what the answer says the boat's
    /// own context is.
    func answer(_ query: HistoryQuery, context: String) -> String {
        var aggregator = HistoryAggregator(query, catalog: catalog)
        visit(from: query.from, to: query.to) { aggregator.add($0) }
        return aggregator.json(context: query.context ?? context)
    }

    /// The paths with something kept between `from` and `to` for a context (nil: this boat), as the History API
    /// names them.
    func paths(from: Double, to: Double, context: String? = nil) -> [String] {
        var present = Set<Int>()
        visit(from: from, to: to) { decoded in
            guard decoded.context == context else { return }
            for (index, values) in decoded.values.enumerated() where values.contains(where: { $0 != nil }) {
                present.insert(index)
            }
        }
        var paths: [String] = []
        if present.contains(0) { paths.append("navigation.position") }
        for index in 2..<catalog.count where present.contains(index) { paths.append(catalog[index].path) }
        return paths
    }

    /// The contexts with something kept between `from` and `to`: the vessels heard on AIS, this boat's as nil.
    func contexts(from: Double, to: Double) -> [String?] {
        var own = false
        var others = Set<String>()
        visit(from: from, to: to) { decoded in
            if let context = decoded.context { others.insert(context) } else { own = true }
        }
        return (own ? [nil] : []) + others.sorted().map { Optional($0) }
    }

    /// The blocks of the minutes from `from` up to (not including) `to`, as they lie on the card, for a playback; at
    /// most `limit` bytes (the vessels' blocks are left out past it, never the boat's). Nil when nothing is kept at
    /// or after `from`: the playback is over.
    func blocks(from: Double, to: Double, limit: Int = 512 * 1024) -> [UInt8]? {
        var out: [UInt8] = []
        var any = false
        let firstMinute = Int64((from / 60).rounded(.down))
        let lastMinute = Int64((to / 60).rounded(.up))
        let firstDay = Self.name(minute: firstMinute).prefix(10)
        let lastDay = Self.name(minute: lastMinute).prefix(10)
        func take(_ raw: UnsafeRawBufferPointer) {
            HistoryBlock.spans(raw, catalog: catalog) { minute, isVessel, span in
                guard minute >= firstMinute else { return }
                any = true
                guard minute < lastMinute else { return }
                if isVessel && out.count + span.count > limit { return }
                out += raw[span]
            }
        }
        for (name, _) in files() where name.prefix(10) >= firstDay {
            guard let bytes = try? POSIX.map(folder + "/" + name, limit: 256 << 20) else { continue }
            take(bytes)
            POSIX.unmap(bytes)
            if any && name.prefix(10) >= lastDay { break }
        }
        if let minute {
            let bytes = minute.encode() + vesselBlocks(minute: minute.minute)
            bytes.withUnsafeBytes { take($0) }
        }
        return any ? out : nil
    }
}
