from reljudge.cli import main

raise SystemExit(main())
