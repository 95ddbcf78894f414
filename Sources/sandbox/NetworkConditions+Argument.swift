import ArgumentParser
import SandboxSession

extension NetworkConditions {
    /// Parses `--network D±J` (also `D+-J`, `D`, `D±J@SEED`) once, for every command that takes it.
    @Sendable static func argument(_ text: String) throws -> NetworkConditions {
        guard let conditions = NetworkConditions(argument: text) else {
            throw ValidationError(
                "must look like 60±20 or 60+-20 (one-way delay ± jitter in ms, delay 0…2000, jitter 0…1000), optionally @SEED"
            )
        }
        return conditions
    }
}
