import Foundation

/// Reading a script's file, with what stops it said plainly: no such file, a folder, not a
/// regular file, too big, not readable (`PanScriptTests.fileProblemsAreSaidPlainly`).
enum ScriptFile {
    static func read(_ path: String, limit: Int) throws(ScriptError) -> Data {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let error = errno
            if error == ENOENT { throw ScriptError("\(path): no such file") }
            throw ScriptError("\(path): cannot be read (\(String(cString: strerror(error))))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw ScriptError("\(path): is a folder, not a script file (give its files: \(path)/*.json)")
        default: throw ScriptError("\(path): not a regular file")
        }
        guard Int(info.st_size) <= limit else {
            throw ScriptError("\(path): \(info.st_size) bytes, more than a script may be (\(limit >> 20) MiB)")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            let why = error == EACCES ? "permission denied" : String(cString: strerror(error))
            throw ScriptError("\(path): cannot be read (\(why))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            // One more byte than the limit: a file that grew since stat is still refused.
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else {
                throw ScriptError("\(path): more than a script may be (\(limit >> 20) MiB)")
            }
            return data
        } catch let error as ScriptError {
            throw error
        } catch {
            throw ScriptError("\(path): cannot be read (\(error.localizedDescription))")
        }
    }
}
