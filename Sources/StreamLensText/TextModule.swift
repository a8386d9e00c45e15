// Text rendering (Cairo/Pango) into small premultiplied YUVA tiles. See issue 4.
import StreamLensCore
