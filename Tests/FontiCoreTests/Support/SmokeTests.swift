import Testing
@testable import FontiCore
@Test func version() { #expect(FontiVersion.number == "1.0.0"); #expect(!Probe.versions().isEmpty) }
