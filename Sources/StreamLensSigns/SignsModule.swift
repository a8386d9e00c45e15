// Speed-limit sign reader. See issue 3.
import StreamLensCore
