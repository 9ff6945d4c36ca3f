import FTWBus
import Testing

@Suite struct EventBusTests {
    @Test func everySubscriberGetsEveryEventInOrder() async {
        let bus = EventBus<Int>()
        let first = bus.subscribe()
        let second = bus.subscribe()
        for value in 1...3 { bus.publish(value) }
        bus.finish()
        #expect(await Array(first) == [1, 2, 3])
        #expect(await Array(second) == [1, 2, 3])
    }

    @Test func aSubscriberSeesOnlyWhatIsPublishedAfterItSubscribed() async {
        let bus = EventBus<String>()
        bus.publish("early")
        let late = bus.subscribe()
        bus.publish("late")
        bus.finish()
        #expect(await Array(late) == ["late"])
    }

    @Test func aFilteredSubscriberGetsOnlyWhatItsFilterAccepts() async {
        let bus = EventBus<Int>()
        let even = bus.subscribe(where: { $0.isMultiple(of: 2) })
        let every = bus.subscribe()
        for value in 1...6 { bus.publish(value) }
        bus.finish()
        #expect(await Array(even) == [2, 4, 6])
        #expect(await Array(every) == [1, 2, 3, 4, 5, 6])
    }

    @Test func aDroppedSubscriptionLeavesTheBus() {
        let bus = EventBus<Int>()
        do {
            let stream = bus.subscribe()
            _ = stream
            #expect(bus.subscriberCount == 1)
        }
        #expect(bus.subscriberCount == 0)
    }

    @Test func aWaitingConsumerGetsTheNextEventPublished() async {
        let bus = EventBus<Int>()
        let stream = bus.subscribe()
        let next = Task {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        bus.publish(7)
        #expect(await next.value == 7)
    }

    @Test func aCancelledConsumerEndsAndLeavesTheBus() async {
        let bus = EventBus<Int>()
        let stream = bus.subscribe()
        let consumer = Task {
            var seen: [Int] = []
            for await value in stream { seen.append(value) }
            return seen
        }
        consumer.cancel()
        #expect(await consumer.value.isEmpty)
        #expect(bus.subscriberCount == 0, "a cancelled subscriber costs the publisher nothing")
        bus.publish(1)
    }

    @Test func aForEachConsumerGetsEveryEventInOrderAndEndsWithTheBus() async {
        let bus = EventBus<Int>()
        let stream = bus.subscribe()
        bus.publish(1)
        let consumer = Task {
            var seen: [Int] = []
            await stream.forEach { seen.append($0) }
            return seen
        }
        bus.publish(2)
        bus.publish(3)
        bus.finish()
        #expect(await consumer.value == [1, 2, 3])
    }

    @Test func aForEachConsumerEndsWhenItsTaskIsCancelledAndLeavesTheBus() async {
        let bus = EventBus<Int>()
        let stream = bus.subscribe()
        let (firstSeen, seen) = AsyncStream.makeStream(of: Int.self)
        let consumer = Task {
            var count = 0
            await stream.forEach { value in
                count += 1
                seen.yield(value)
            }
            return count
        }
        bus.publish(1)
        var firsts = firstSeen.makeAsyncIterator()
        #expect(await firsts.next() == 1)
        consumer.cancel()
        // A bound, not a wait for an outcome: a consumer that missed its cancellation would wait forever.
        let ended = OneShot<Int?>()
        Task { _ = ended.fulfil(await consumer.value) }
        let watchdog = Task {
            guard (try? await ContinuousClock().sleep(for: .seconds(10))) != nil else { return }
            _ = ended.fulfil(nil)
        }
        #expect(await ended.value == 1, "a cancelled consumer stops waiting and takes nothing more")
        watchdog.cancel()
        #expect(bus.subscriberCount == 0, "a cancelled subscriber costs the publisher nothing")
    }

    @Test func aSubscriberAfterTheBusFinishedGetsAnEndedStream() async {
        let bus = EventBus<Int>()
        bus.finish()
        let late = bus.subscribe()
        bus.publish(1)
        #expect(await Array(late).isEmpty)
        #expect(bus.subscriberCount == 0)
    }

    @Test func aFedStreamHandsOverInOrderAndEndsAfterWhatItHolds() async {
        let (stream, feed) = BusStream<Int>.makeStream()
        feed.yield(1)
        feed.yield(2)
        feed.finish()
        feed.yield(3)
        #expect(await Array(stream) == [1, 2], "nothing after the end")
    }

    @Test func theInMemorySinkKeepsLinesByCategory() {
        let sink = InMemoryLogSink()
        sink.log("asks", atMs: 1, "plan.get id=1")
        sink.log("session", atMs: 2, "dialing")
        #expect(sink.entries(category: "asks").map(\.message) == ["plan.get id=1"])
        #expect(sink.entries().count == 2)
    }
}

extension Array where Element: Sendable {
    init(_ stream: BusStream<Element>) async {
        var elements: [Element] = []
        for await element in stream { elements.append(element) }
        self = elements
    }
}
