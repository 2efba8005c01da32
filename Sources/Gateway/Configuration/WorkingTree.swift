import Platform

/// A build made in the working tree finds what it serves there (the panel's files, the base map) by walking up from
/// the program to the tree's root.
enum WorkingTree {
    /// `folder` (relative to the tree's root) in the nearest of the program's five parent folders that holds
    /// `folder/marker`; nil when none does.
    static func folder(_ folder: String, holding marker: String, executable: String?) -> String? {
        guard var root = executable.map({ POSIX.folder(of: $0) }) else { return nil }
        for _ in 0..<5 {
            if POSIX.exists(root + "/" + folder + "/" + marker) { return root + "/" + folder }
            let parent = POSIX.folder(of: root)
            guard parent != root else { break }
            root = parent
        }
        return nil
    }
}
