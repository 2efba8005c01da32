import Marine

/// What a list of resources is narrowed to.
public struct ResourceFilter: Hashable, Sendable {
    /// At most this many, the first in id order.
    public var limit: Int?
    /// West, south, east, north in degrees (a box across the antimeridian has west > east).
    public var box: [Double]?
    /// Within this many metres of ``position`` (the boat's, when the query names none).
    public var distance: Double?
    public var position: GeoPoint?
    /// Notes linked to this resource (`/resources/<kind>/<id>`).
    public var href: String?

    public init() {}

    /// The most a list gives, whatever `limit` says.
    public static let largestLimit = 1_000

    /// The filter a query asks for; the reason when a parameter is not one this API takes or its value is wrong.
    public static func parse(_ query: [(String, String)]) -> Result<ResourceFilter, ResourceError> {
        var filter = ResourceFilter()
        for (name, value) in query {
            switch name {
            case "limit":
                guard let number = Double(value), number >= 1, number == number.rounded(),
                    number <= Double(largestLimit)
                else { return .failure(ResourceError("limit: a whole number, 1 to \(largestLimit)")) }
                filter.limit = Int(number)
            case "bbox":
                guard let box = numbers(value), box.count == 4, abs(box[0]) <= 180, abs(box[2]) <= 180,
                    abs(box[1]) <= 90, abs(box[3]) <= 90, box[1] <= box[3]
                else {
                    return .failure(
                        ResourceError("bbox: [west, south, east, north] in degrees, south below north"))
                }
                filter.box = box
            case "distance":
                guard let metres = Double(value), metres.isFinite, metres >= 0, metres <= 40_075_000 else {
                    return .failure(ResourceError("distance: metres, 0 to 40075000"))
                }
                filter.distance = metres
            case "position":
                guard let pair = numbers(value), pair.count == 2, abs(pair[0]) <= 180, abs(pair[1]) <= 90 else {
                    return .failure(ResourceError("position: [longitude, latitude] in degrees"))
                }
                filter.position = GeoPoint(latitude: pair[1], longitude: pair[0])
            case "href":
                guard Resources.reference(value) != nil else {
                    return .failure(ResourceError("href: /resources/<kind>/<id>"))
                }
                filter.href = value
            case "zoom", "provider":
                // The reference leaves zoom to each provider; one provider here.
                continue
            default:
                return .failure(
                    ResourceError("\(name): not a parameter of this list (limit, bbox, distance, position, href)"))
            }
        }
        return .success(filter)
    }

    /// `[1,2,3]` or `1,2,3` as numbers, each finite; nil otherwise (at most 8).
    static func numbers(_ text: String) -> [Double]? {
        var body = Substring(text)
        if body.hasPrefix("[") && body.hasSuffix("]") { body = body.dropFirst().dropLast() }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= 8 else { return nil }
        var values: [Double] = []
        for part in parts {
            let word = String(part.filter { $0 != " " })
            guard let value = Double(word), value.isFinite else { return nil }
            values.append(value)
        }
        return values
    }
}
