import StreamLensCore

/// A constant-velocity Kalman filter over a box: centre x, centre y, width and height, each with its velocity
/// (pixels and pixels per second), predicted by stream time rather than by frame count, since analysis runs on a
/// cadence that may stretch.
///
/// The motion model (`position += velocity · dt`), the process noise, the measurement (the four box values) and its
/// noise are the same for each of the four quantities and never couple them, so the 8-state filter is exactly four
/// independent 2-state filters (position, velocity) sharing a noise scale: the box height, as in ByteTrack, so a
/// near (tall) box may move more pixels than a far one. Each axis keeps its 2 × 2 covariance as three numbers.
///
/// Noise, per axis, with `h` the current height:
/// - process: position variance `(positionNoise · h)² · dt`, velocity variance `(velocityNoise · h)² · dt` per second
///   of prediction (white noise whose variance grows linearly with elapsed time);
/// - measurement: variance `(measurementNoise · h)²`;
/// - at the first sighting: position variance `(2 · measurementNoise · h)²`, velocity variance
///   `(initialVelocityNoise · h)²`.
public struct KalmanBoxFilter: Sendable, Equatable {
    /// Noise scales, as fractions of the box height (see the type's description).
    public struct Noise: Sendable, Equatable {
        /// Position noise per √second. ByteTrack's 1/20 of the height per frame at 30 fps is 0.27 per √s.
        public var positionNoise: Double = 0.27
        /// Velocity noise (heights per second) per √second. ByteTrack's 1/160 per frame at 30 fps is 1.03.
        public var velocityNoise: Double = 1.03
        /// Standard deviation of a measured box value.
        public var measurementNoise: Double = 0.05
        /// Standard deviation of the velocity (heights per second) of a new track. ByteTrack's 10/160 of the height
        /// per frame at 30 fps is 1.875: wide, so the second sighting sets most of the velocity.
        public var initialVelocityNoise: Double = 1.875
        public init() {}
    }

    /// One quantity and its rate of change, with their covariance `[[pp, pv], [pv, vv]]`.
    public struct Axis: Sendable, Equatable {
        public var position: Double
        public var velocity: Double
        public var pp: Double
        public var pv: Double
        public var vv: Double

        /// Moves the state on by `dt` seconds: `F = [[1, dt], [0, 1]]`, `P ← F P Fᵀ + diag(qp, qv)`.
        mutating func predict(dt: Double, qp: Double, qv: Double) {
            position += velocity * dt
            pp += 2 * dt * pv + dt * dt * vv + qp
            pv += dt * vv
            vv += qv
        }

        /// Folds in a measurement `z` of the position with variance `r`: `S = pp + r`, `K = (pp, pv) / S`.
        mutating func update(measured z: Double, variance r: Double) {
            let s = pp + r
            let kp = pp / s
            let kv = pv / s
            let innovation = z - position
            position += kp * innovation
            velocity += kv * innovation
            // P ← (I − K H) P, written out for the symmetric 2 × 2.
            vv -= kv * pv
            pv *= 1 - kp
            pp *= 1 - kp
        }
    }

    public var x: Axis
    public var y: Axis
    public var width: Axis
    public var height: Axis
    public let noise: Noise

    /// A filter at `box`, at rest, with the first-sighting uncertainty.
    public init(box: BoundingBox, noise: Noise = Noise()) {
        self.noise = noise
        let h = max(box.height, 1)
        let pp = (2 * noise.measurementNoise * h) * (2 * noise.measurementNoise * h)
        let vv = (noise.initialVelocityNoise * h) * (noise.initialVelocityNoise * h)
        func axis(_ value: Double) -> Axis { Axis(position: value, velocity: 0, pp: pp, pv: 0, vv: vv) }
        x = axis(box.center.x)
        y = axis(box.center.y)
        width = axis(box.width)
        height = axis(box.height)
    }

    /// The box the state describes (width and height never below 1 px).
    public var box: BoundingBox {
        let w = max(width.position, 1)
        let h = max(height.position, 1)
        return BoundingBox(x: x.position - w / 2, y: y.position - h / 2, width: w, height: h)
    }

    /// Centre velocity in pixels per second.
    public var velocity: (x: Double, y: Double) { (x.velocity, y.velocity) }

    /// The state `dt` seconds later (nothing happens for `dt` ≤ 0).
    public mutating func predict(by dt: Double) {
        guard dt > 0 else { return }
        let h = max(height.position, 1)
        let qp = (noise.positionNoise * h) * (noise.positionNoise * h) * dt
        let qv = (noise.velocityNoise * h) * (noise.velocityNoise * h) * dt
        x.predict(dt: dt, qp: qp, qv: qv)
        y.predict(dt: dt, qp: qp, qv: qv)
        width.predict(dt: dt, qp: qp, qv: qv)
        height.predict(dt: dt, qp: qp, qv: qv)
    }

    /// The predicted box `dt` seconds later, leaving the state as it is.
    public func predicted(by dt: Double) -> BoundingBox {
        var copy = self
        copy.predict(by: dt)
        return copy.box
    }

    /// Folds in a measured box.
    public mutating func update(with box: BoundingBox) {
        let h = max(height.position, 1)
        let r = (noise.measurementNoise * h) * (noise.measurementNoise * h)
        x.update(measured: box.center.x, variance: r)
        y.update(measured: box.center.y, variance: r)
        width.update(measured: box.width, variance: r)
        height.update(measured: box.height, variance: r)
    }

    /// Stops the box growing or shrinking (a lost track: its size change is not evidence of anything).
    public mutating func holdSize() {
        width.velocity = 0
        height.velocity = 0
    }
}
