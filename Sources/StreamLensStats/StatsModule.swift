// Run statistics. See issue 6.
import StreamLensCore
