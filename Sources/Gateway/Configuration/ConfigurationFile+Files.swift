/// `files`: the folder the files this configuration names by a relative path are in, when it is not the file's own.
/// On the image the sailor writes `telltale.toml` on the card's boot partition beside `polar.csv` and `route.gpx`, and
/// the Pi runs a copy of it kept on the data partition: `files = "/boot/firmware"` (in the image's example) makes
/// `polar = "polar.csv"` the file beside it on the card for the copy too, and for `check-config` on either.
extension ConfigurationFile.Reader {
    /// The folder relative paths are taken from: `files` (itself relative to the file's folder when relative), else
    /// the file's folder.
    func filesFolder(_ root: TOMLTable, base: String) throws(ConfigurationFile.Error) -> String {
        guard let value = root["files"] else { return base }
        guard let folder = value.string, !folder.isEmpty, !folder.contains("\0") else {
            throw fail("files", "must be a folder's path (the files named by a relative path are in it)")
        }
        let trimmed = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        return trimmed.hasPrefix("/") ? trimmed : base + "/" + trimmed
    }
}
