extension SignalKModel {
    /// The current value of a path (the preferred source's), if it is one the history keeps as a number.
    func historyValue(_ path: String) -> SignalKValue? {
        let found = entries[path] ?? []
        let preferred = preferredSource(path)
        return (found.first(where: { $0.source == preferred }) ?? found.first)?.value
    }

    /// This second's values for the history: each series' value now, in the order of ``HistoryBlock/series``; nil
    /// where there is none (a value withdrawn is null here, never a stale one).
    public func historySample(catalog: [HistoryBlock.Series] = HistoryBlock.series) -> [Double?] {
        var sample: [Double?] = Array(repeating: nil, count: catalog.count)
        if let value = historyValue("navigation.position"), case .position(let latitude, let longitude) = value {
            sample[0] = latitude
            sample[1] = longitude
        }
        if let value = historyValue("navigation.attitude"), case .attitude(let roll, let pitch, _) = value {
            sample[12] = roll
            sample[13] = pitch
        }
        for index in 2..<catalog.count where index != 12 && index != 13 {
            if let value = historyValue(catalog[index].path), case .number(let number) = value {
                sample[index] = number
            }
        }
        return sample
    }
}

extension SignalKTraffic.Station {
    /// What the history keeps of a vessel heard on AIS now: latitude, longitude, course and speed over ground (the
    /// first ``HistoryBlock/vesselSeries`` series).
    public var historySample: [Double?] {
        var sample: [Double?] = Array(repeating: nil, count: HistoryBlock.vesselSeries)
        for (path, value) in values {
            if path == "navigation.position", case .position(let latitude, let longitude) = value {
                sample[0] = latitude
                sample[1] = longitude
            } else if path == "navigation.courseOverGroundTrue", case .number(let number) = value {
                sample[2] = number
            } else if path == "navigation.speedOverGround", case .number(let number) = value {
                sample[3] = number
            }
        }
        return sample
    }

    /// Whether the history keeps this station's track: vessels and search-and-rescue units, not fixed stations.
    public var isKeptInHistory: Bool { context.hasPrefix("vessels.") || context.hasPrefix("sar.") }

    /// When the station was last heard, on the engine's clock.
    public var lastHeard: Double { heard }
}
