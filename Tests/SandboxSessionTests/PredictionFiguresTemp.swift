import Testing
import TransitionCore
import Foundation

@testable import SandboxSession

@Suite("PredictionFiguresTemp") struct PredictionFiguresTemp {
    @Test func figures() {
        for kind in TransitionKind.allCases {
            for variant in 0...4 {
                let c = PredictionTableTests.configuration(kind: TransitionKind.allCases.firstIndex(of: kind)!, variant: variant)
                let picture = try! TrackingPicture(configuration: c)
                let start = Date()
                let table = TrackingTable(picture)
                let elapsed = Date().timeIntervalSince(start) * 1000
                guard let table else { print("FIG \(kind) \(variant) nil"); continue }
                let bytes = ServerMessages.encode(.prediction(table), headroom: 0).payloadCount
                var worst = 0.0
                for i in 0...20000 {
                    let p = Double(i) / 20000 + 0.0000123
                    let d = TrackingTable.deviation(table.sample(atFraction: p).layers, picture.layers(atFraction: min(p, 1)))
                    worst = max(worst, d.points)
                }
                print("FIG \(kind.rawValue) v\(variant) samples \(table.samples.count) bytes \(bytes) ms \(String(format: "%.1f", elapsed)) worst \(String(format: "%.3f", worst))")
            }
        }
    }
}
