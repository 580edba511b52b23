import sys

from ui.entry import main

sys.exit(main())
